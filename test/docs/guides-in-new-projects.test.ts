import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killGroups, npmEnv, npxServe, packedTarball, run } from '../package/packed.js';
import { repeatRun } from '../support/once.js';
import { runBlocks, sourceFileOf } from './block-runner.js';
import { startCheckingProxy, type CheckingProxy } from './checking-proxy.js';
import { guideFiles, runnableBlocks, type FencedBlock } from './markdown.js';

/**
 * Every guide as a newcomer follows it: in an empty directory, its install block run as written
 * (`npm init -y`, which makes a CommonJS project, then `npm install …`; `npm pkg set type=module`
 * where the guide says to), the package from its packed tarball and every other package at the
 * version this repository uses (project-shims.ts), then every block in order against the
 * packed `content-sim` behind the proxy that holds each answer to the contract, and last the
 * compiler over the guide's TypeScript with the project's own typescript and types: what a
 * reader copies is what runs. A guide with no install block gets the README's one line
 * (`npm install --save-dev <tarball>`). One pack for the run (shared with test/package/), one
 * install of the tarball that every guide's project starts from (its node_modules copied, so
 * the guide's own install only adds its packages from the npm cache).
 */
const TSC = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--skipLibCheck'];
const readme: FencedBlock = { file: 'README.md', line: 0, lang: 'sh', illustrative: false, install: true, code: 'npm init -y\nnpm install --save-dev content-service-simulator\n' };

let tarball: string;
let base: string;
let proxy: CheckingProxy;
const servers: ChildProcess[] = [];
const projects: string[] = [];

/** The blocks a guide's reader runs: its install block first (the README's line where it has none). */
function guideBlocks(file: string): FencedBlock[] {
  const blocks = runnableBlocks(file, true);
  return blocks.some((b) => b.install) ? blocks : [readme, ...blocks];
}

describe.skipIf(repeatRun)('every guide in a new project, with the packed package', () => {
  beforeAll(async () => {
    tarball = await packedTarball();
    base = mkdtempSync(join(tmpdir(), 'sim-guides-base-'));
    await run('npm', ['init', '-y'], { cwd: base, env: npmEnv });
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', tarball], { cwd: base, env: npmEnv, maxBuffer: 1 << 24 });
    proxy = await startCheckingProxy();
    // The packed CLI, as a reader starts it in their project.
    proxy.target((await npxServe(base, servers, ['--public-url', proxy.url])).baseUrl);
  }, 420_000);

  afterAll(async () => {
    killGroups(servers);
    await proxy?.close();
    for (const dir of [base, ...projects]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds every guide, each with TypeScript says what to install, and npm init -y makes a CommonJS project', () => {
    expect(guideFiles().length).toBeGreaterThanOrEqual(5);
    for (const file of guideFiles()) {
      const blocks = runnableBlocks(file, true);
      if (blocks.some((b) => b.lang === 'ts')) expect(blocks.some((b) => b.install), `${file} runs TypeScript: its install block names typescript and tsx`).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(base, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
  });

  it.each(guideFiles())('%s: its install block, every block, and its TypeScript through the project\'s own tsc', async (file) => {
    const project = mkdtempSync(join(tmpdir(), `sim-guide-${file.replace(/^docs\/guides\/|\.md$/g, '')}-`));
    projects.push(project);
    cpSync(join(base, 'node_modules'), join(project, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    const blocks = guideBlocks(file);
    const address = new URL(proxy.url).host;
    const failure = await runBlocks(blocks, { workDir: project, project: { tarball }, rewrite: (code) => code.replaceAll('127.0.0.1:4010', address) });
    expect(failure?.message).toBeUndefined();
    expect(proxy.takeViolations()).toEqual([]);
    const typescript = blocks.filter((b) => b.lang === 'ts' || b.lang === 'typescript').map(sourceFileOf);
    if (typescript.length === 0) return;
    const tsc = join(project, 'node_modules/.bin/tsc');
    expect(existsSync(tsc), `${file} has TypeScript blocks: its install block must list typescript`).toBe(true);
    const checked = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(tsc, [...TSC, ...typescript], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('exit', (code) => resolve({ code, output }));
    });
    expect(checked.output, `tsc ${TSC.join(' ')} in the ${JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).type ?? 'commonjs'} project`).toBe('');
    expect(checked.code).toBe(0);
  }, 600_000);
});
