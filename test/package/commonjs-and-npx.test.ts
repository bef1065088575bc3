import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatRun } from '../support/once.js';
import { killGroups, npxServe, root, run, userProject } from './packed.js';

/**
 * The packed package in a CommonJS project (no "type": "module"), as such a user meets it:
 * the msw guide's snippet type-checks under `module: nodenext` and runs; `npx content-sim
 * serve` stops when the npx process that launched it is killed.
 */
let project: string;
const children: ChildProcess[] = [];

describe.skipIf(repeatRun)('the packed package in a CommonJS project', () => {
  beforeAll(async () => {
    project = await userProject('commonjs');
  }, 240_000);

  afterAll(() => killGroups(children));

  it("type-checks the msw guide's snippet with module nodenext, and runs it", async () => {
    const guide = readFileSync(join(root, 'docs/guides/frontend-msw.md'), 'utf8');
    const snippet = /```ts\n([\s\S]*?)```/.exec(guide)![1]!;
    expect(snippet).toContain("import { setupServer } from 'msw/node';");
    // The snippet as written, then one call through it, to see it answer.
    writeFileSync(join(project, 'snippet.ts'), `${snippet}
void fetch('https://api.example.com/api/v1/tokens/balance', { headers: { authorization: \`Bearer \${simulator.keys.readWrite}\` } })
  .then(async (res) => console.log(JSON.stringify({ status: res.status, body: await res.json() })))
  .finally(() => server.close());
`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false, types: ['node'], lib: ['es2022', 'dom'], outDir: 'out' },
      files: ['snippet.ts'],
    }));
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await run(process.execPath, [tsc, '-p', '.'], { cwd: project }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    expect(compiled.stdout).toBe('');
    expect(readFileSync(join(project, 'out', 'snippet.js'), 'utf8')).toContain('require("msw/node")');
    const { stdout } = await run(process.execPath, ['out/snippet.js'], { cwd: project, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({ status: 200, body: { balance: 100, lifetimePurchased: 100, lifetimeUsed: 0 } });
  }, 120_000);

  it('stops `npx content-sim serve` when the npx process is killed', async () => {
    const { child: npx, baseUrl, stderr } = await npxServe(project, children);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);

    // `kill $!` after `npx content-sim serve &`: the signal reaches npm only.
    npx.kill('SIGTERM');
    const answering = async () => fetch(`${baseUrl}/healthz`).then(() => true, () => false);
    let up = true;
    for (let attempt = 0; attempt < 100 && up; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      up = await answering();
    }
    expect(up, `still answering 10 s after npx was killed; its output: ${stderr()}`).toBe(false);
  }, 60_000);
});
