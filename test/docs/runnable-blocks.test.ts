import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliServer } from '../support/cli-server.js';
import { repeatRun } from '../support/once.js';
import { runBlocks } from './block-runner.js';
import { startCheckingProxy, type CheckingProxy } from './checking-proxy.js';
import { documentFiles, guideFiles, root, runnableBlocks } from './markdown.js';

/**
 * Every sh, bash, js and ts block of README.md and docs/ (the guides aside: each runs in a new
 * project of its own, guides-in-new-projects.test.ts) that is not marked `illustrative`,
 * run in order per document against a simulator started as `npm start` starts it (default
 * seed, so the demo keys in the text are the keys it has). The documents are written for
 * http://127.0.0.1:4010; only that address changes, to a proxy in front of the simulator that
 * checks every answer against the contract. All of them run on ONE simulator, the README first
 * and then every other document, with no reset in between: as a reader who tries one document
 * after another would, so no document may count on a state another one left (each makes its own
 * account, or names that no other document uses).
 */
const documents = ['README.md', ...documentFiles().filter((file) => file !== 'README.md' && !guideFiles().includes(file))].filter((file) => runnableBlocks(file).length > 0);
const workRoot = join(root, 'node_modules/.cache/doc-blocks');

let proxy: CheckingProxy;
let simulator: CliServer;

describe.skipIf(repeatRun)('the runnable blocks of README.md and docs/', () => {
  beforeAll(async () => {
    rmSync(workRoot, { recursive: true, force: true });
    proxy = await startCheckingProxy();
    simulator = await startCli(['--public-url', proxy.url]);
    proxy.target(simulator.baseUrl);
  }, 60_000);

  afterAll(async () => {
    simulator?.stop();
    await proxy?.close();
  });

  it('finds runnable blocks in the README and in every part of docs/', () => {
    expect(documents).toContain('README.md');
    for (const part of ['reference', 'operations']) expect(documents.some((file) => file.startsWith(`docs/${part}/`)), part).toBe(true);
    // The guides run each in a project of its own, with the packed package: guides-in-new-projects.test.ts.
    expect(documents.some((file) => file.startsWith('docs/guides/'))).toBe(false);
  });

  it.each(documents)('%s: every runnable block passes, and every answer keeps the contract', async (file) => {
    const address = new URL(proxy.url).host;
    const failure = await runBlocks(runnableBlocks(file), {
      workDir: join(workRoot, file.replace(/[^a-z0-9]+/gi, '-')),
      rewrite: (code) => code.replaceAll('127.0.0.1:4010', address),
    });
    expect(failure?.message).toBeUndefined();
    expect(proxy.takeViolations()).toEqual([]);
  }, 600_000);
});
