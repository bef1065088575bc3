import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBlocks } from './block-runner.js';
import { fencedBlocks, root, runnableBlocks } from './markdown.js';

/** The doc test's runner fails on a broken command, naming file and line, and passes what works. */
const workRoot = join(root, 'node_modules/.cache');
let workDir: string;
let server: Server;
let port: number;

beforeAll(async () => {
  mkdirSync(workRoot, { recursive: true });
  workDir = mkdtempSync(join(workRoot, 'doc-runner-'));
  // A stand-in answering 404 on /missing and 200 elsewhere, to see curl's treatment of errors.
  server = createServer((req, res) => res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain' }).end(req.url === '/missing' ? 'gone' : 'ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
});

const fixture = (markdown: string) => fencedBlocks(markdown, 'fixture.md').filter((b) => !b.illustrative);

describe('the doc block runner', () => {
  it('fails on a broken command with the file, the line and what the block printed', async () => {
    const blocks = runnableBlocks('test/docs/fixtures/broken-command.md');
    expect(blocks.map((b) => b.line)).toEqual([3, 11]);
    const failure = await runBlocks(blocks, { workDir: join(workDir, 'broken') });
    expect(failure?.message).toMatch(/^test\/docs\/fixtures\/broken-command\.md:11 \(sh\): exit code 127/);
    expect(failure?.message).toContain('hello from the first block');
    expect(failure?.message).toContain('no-such-command: command not found');
    expect(failure?.message).not.toContain('never reached');
  });

  it('fails a pipeline whose first command fails, and an unset variable', async () => {
    expect((await runBlocks(fixture('```sh\nfalse | cat\n```\n'), { workDir: join(workDir, 'pipe') }))?.message).toMatch(/fixture\.md:1 \(sh\): exit code 1/);
    expect((await runBlocks(fixture('```bash\necho "$NOT_SET_ANYWHERE"\n```\n'), { workDir: join(workDir, 'unset') }))?.message).toMatch(/NOT_SET_ANYWHERE: unbound variable/);
  });

  it('fails a curl that meets an HTTP error unless the block shows the status', async () => {
    const base = `http://127.0.0.1:${port}`;
    const failing = await runBlocks(fixture(`\`\`\`sh\ncurl -s ${base}/missing\n\`\`\`\n`), { workDir: join(workDir, 'curl-fail') });
    expect(failing?.message).toMatch(/exit code 22/);
    const shown = await runBlocks(fixture(`\`\`\`sh\ncurl -s -w '%{http_code}\\n' ${base}/missing\ncurl -s ${base}/found\n\`\`\`\n`), { workDir: join(workDir, 'curl-shown') });
    expect(shown).toBeUndefined();
  });

  it('fails a TypeScript block that throws, and stops a block past its time', async () => {
    const thrown = await runBlocks(fixture("```ts\nconst n: number = 1;\nif (n === 1) throw new Error('the doc is wrong');\n```\n"), { workDir: join(workDir, 'ts') });
    expect(thrown?.message).toMatch(/fixture\.md:1 \(ts\): exit code 1[\s\S]*the doc is wrong/);
    const slow = await runBlocks(fixture('```sh\nsleep 30\n```\n'), { workDir: join(workDir, 'slow'), timeoutMs: 1_000 });
    expect(slow?.message).toMatch(/still running after 1 s/);
  }, 30_000);

  it('carries variables and functions from block to block, rewrites addresses, and writes named files', async () => {
    const markdown = [
      '```sh\nURL=http://127.0.0.1:4010/x\nshout() { echo "$1!"; }\n```',
      '```sh\nshout "$URL" > seen.txt\n```',
      "```ts file=named.ts\nimport { writeFileSync } from 'node:fs';\nwriteFileSync('from-ts.txt', 'http://127.0.0.1:4010');\n```",
    ].join('\n\n');
    const dir = join(workDir, 'carry');
    expect(await runBlocks(fixture(markdown), { workDir: dir, rewrite: (code) => code.replaceAll('127.0.0.1:4010', 'rewritten:1') })).toBeUndefined();
    expect(readFileSync(join(dir, 'seen.txt'), 'utf8')).toBe('http://rewritten:1/x!\n');
    expect(readFileSync(join(dir, 'from-ts.txt'), 'utf8')).toBe('http://rewritten:1');
    expect(readFileSync(join(dir, 'named.ts'), 'utf8')).toContain('rewritten:1');
  }, 30_000);

  it('refuses to install what a block asks npx for', async () => {
    const failure = await runBlocks(fixture('```sh\nnpx some-package-that-is-not-here --version\n```\n'), { workDir: join(workDir, 'npx') });
    expect(failure?.message).toMatch(/some-package-that-is-not-here is not installed: a runnable block installs nothing/);
  });

  it('in a reader\'s project: installs only packages this repository has, runs only what the project installed', async () => {
    const project = { tarball: join(workDir, 'no-such.tgz') };
    const install = await runBlocks(fixture('```sh\nnpm init -y >/dev/null\nnpm install --save-dev some-package-that-is-not-here\n```\n'), { workDir: join(workDir, 'reader-npm'), project });
    expect(install?.message).toMatch(/npm install some-package-that-is-not-here: not a dependency of this repository/);
    const npx = await runBlocks(fixture('```sh\nnpx content-sim --version\n```\n'), { workDir: join(workDir, 'reader-npx'), project });
    expect(npx?.message).toMatch(/content-sim is not installed in this project: the guide's install block must list its package/);
    const ts = await runBlocks(fixture("```ts\nconsole.log('typed');\n```\n"), { workDir: join(workDir, 'reader-ts'), project });
    expect(ts?.message).toMatch(/tsx is not installed in the project: the guide's install block must list it/);
  }, 30_000);
});
