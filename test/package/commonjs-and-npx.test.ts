import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repeatRun } from '../support/once.js';

/**
 * The packed package in a CommonJS project (no "type": "module"), as such a user meets it:
 * the README's msw snippet type-checks under `module: nodenext` and runs; `npx content-sim
 * serve` stops when the npx process that launched it is killed.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
let project: string;
const children: ChildProcess[] = [];

function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

describe.skipIf(repeatRun)('the packed package in a CommonJS project', () => {
  beforeAll(async () => {
    const packDir = mkdtempSync(join(tmpdir(), 'sim-pack-cjs-'));
    await run('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: root, env: npmEnv, maxBuffer: 1 << 24 });
    const tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
    project = mkdtempSync(join(tmpdir(), 'sim-cjs-user-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'cjs-user', private: true, type: 'commonjs' }));
    const tools = ['msw', 'typescript', '@types/node'].map((name) => `${name}@${versionOf(name)}`);
    await run('npm', ['install', '--prefer-offline', '--no-save', tarball, ...tools], { cwd: project, env: npmEnv, maxBuffer: 1 << 24 });
  }, 240_000);

  // npx runs the server as its grandchild: whatever the test ends with, kill the whole group.
  afterAll(() => children.splice(0).forEach((c) => {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }));

  it("type-checks the README's msw snippet with module nodenext, and runs it", async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## In your tests: msw'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
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
    const npx = spawn('npx', ['content-sim', 'serve', '--port', '0', '--quiet'], { cwd: project, env: npmEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.push(npx);
    let stderr = '';
    npx.stderr!.on('data', (chunk) => (stderr += chunk));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
      npx.stdout!.on('data', (chunk) => {
        out += chunk;
        const url = /listening on\s+(http:\/\/\S+)/.exec(out)?.[1];
        if (url && out.includes('empty account')) (clearTimeout(timer), resolve(url));
      });
      npx.once('exit', (code) => reject(new Error(`npx exited ${code}: ${out}`)));
    });
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);

    // `kill $!` after `npx content-sim serve &`: the signal reaches npm only.
    npx.kill('SIGTERM');
    const answering = async () => fetch(`${baseUrl}/healthz`).then(() => true, () => false);
    let up = true;
    for (let attempt = 0; attempt < 100 && up; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      up = await answering();
    }
    expect(up, `still answering 10 s after npx was killed; its output: ${stderr}`).toBe(false);
  }, 60_000);
});
