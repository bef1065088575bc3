import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliServer } from '../support/cli-server.js';
import { repeatRun } from '../support/once.js';
import { runBlocks } from './block-runner.js';
import { startCheckingProxy, type CheckingProxy } from './checking-proxy.js';
import { root, runnableBlocks } from './markdown.js';

/**
 * The SDK guide in the project a newcomer starts with: a plain `npm init -y`, which npm 11 makes
 * CommonJS. Its blocks (the curl flow, the generated types, the typed client under tsx and tsc)
 * run there in order, against a simulator behind the proxy that holds every answer to the
 * contract. The project sits inside the repository so that its imports resolve to the versions
 * installed here, as the install line of the guide would bring them.
 */
const GUIDE = 'docs/guides/sdk-offline.md';
const workDir = join(root, 'node_modules/.cache/sdk-guide-npm-init');

let proxy: CheckingProxy;
let simulator: CliServer;

describe.skipIf(repeatRun)('the SDK guide in a project made by npm init -y', () => {
  beforeAll(async () => {
    rmSync(workDir, { recursive: true, force: true });
    mkdirSync(workDir, { recursive: true });
    proxy = await startCheckingProxy();
    simulator = await startCli(['--public-url', proxy.url]);
    proxy.target(simulator.baseUrl);
  }, 60_000);

  afterAll(async () => {
    simulator?.stop();
    await proxy?.close();
  });

  it('runs every block of the guide, the typed client included, and every answer keeps the contract', async () => {
    const init = spawnSync('npm', ['init', '-y'], { cwd: workDir, encoding: 'utf8', timeout: 60_000 });
    expect(init.status, init.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(workDir, 'package.json'), 'utf8')) as { type?: string };
    // What npm init -y writes: CommonJS, said outright (npm 11) or by leaving the type out.
    expect(manifest.type ?? 'commonjs').toBe('commonjs');
    const address = new URL(proxy.url).host;
    const failure = await runBlocks(runnableBlocks(GUIDE), { workDir, existingProject: true, rewrite: (code) => code.replaceAll('127.0.0.1:4010', address) });
    expect(failure?.message).toBeUndefined();
    expect(proxy.takeViolations()).toEqual([]);
  }, 600_000);
});
