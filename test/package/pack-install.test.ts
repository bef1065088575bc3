/**
 * The package as a user gets it: `npm pack` (which builds on prepare), the tarball installed
 * into an empty project, its two bins run, its three entry points imported from plain ESM and
 * type-checked from TypeScript under both module resolutions a project may use.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import lock from '../../package-lock.json' with { type: 'json' };

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'content-sim-pack-'));
const project = join(work, 'project');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
/** The versions this repository tests with, so that the install is served from the npm cache. */
const pinned = (name: string) => `${name}@${(lock.packages as Record<string, { version: string }>)[`node_modules/${name}`]!.version}`;

let tarball = '';
let files: string[] = [];
let server: ChildProcess | undefined;

beforeAll(async () => {
  const packed = await run(npm, ['pack', '--json', '--pack-destination', work], { cwd: root, env: npmEnv, maxBuffer: 64 << 20 });
  const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, info[0]!.filename);
  files = info[0]!.files.map((f) => f.path);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--silent', tarball, pinned('msw'), pinned('@types/node')], { cwd: project, env: npmEnv });
}, 300_000);

afterAll(() => {
  server?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('ships the compiled simulator, suite and contracts, and no source maps pointing at sources it leaves out', () => {
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'dist/adapters/msw.js', 'dist/mcp/mcp-endpoint.js', 'dist/contracts/run.js', 'openapi.yaml', 'simulator-control.yaml']) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });
});

describe('the installed tarball, in an empty project', () => {
  it('imports its three entry points from plain ESM', async () => {
    const script = [
      "const sim = await import('content-service-simulator');",
      "const msw = await import('content-service-simulator/msw');",
      "const mcp = await import('content-service-simulator/mcp');",
      'const s = sim.createSimulator();',
      "const r = s.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: {} });",
      'console.log(JSON.stringify([typeof sim.createExpressApp, typeof msw.createMswHandlers, Object.keys(mcp).length > 0, r.status]));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual(['function', 'function', true, 401]);
  });

  it.each(['nodenext', 'bundler'])('type-checks a TypeScript consumer under moduleResolution %s', async (resolution) => {
    const dir = join(project, `ts-${resolution}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'consumer.ts'), [
      "import { createSimulator, createExpressApp, type Simulator } from 'content-service-simulator';",
      "import { createMswHandlers } from 'content-service-simulator/msw';",
      "import * as mcp from 'content-service-simulator/mcp';",
      'const sim: Simulator = createSimulator();',
      "const status: number = sim.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: {} }).status;",
      'export const used = [status, createExpressApp, createMswHandlers(sim).length, mcp];',
      '',
    ].join('\n'));
    const module = resolution === 'bundler' ? 'esnext' : 'nodenext';
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module, moduleResolution: resolution, types: ['node'], skipLibCheck: false, lib: ['es2022', 'dom'] },
      files: ['consumer.ts'],
    }));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).catch((e: { stdout: string }) => e);
    expect(result.stdout).toBe('');
  });

  it('runs `content-sim serve` until it answers, and `content-contracts` passes against it', async () => {
    server = spawn(join(project, 'node_modules/.bin/content-sim'), ['serve', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`content-sim did not start: ${out}`)), 20_000);
      server!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const found = /listening on\s+(http:\/\/\S+)/.exec(out);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      });
      server!.on('exit', (code) => reject(new Error(`content-sim exited ${code}: ${out}`)));
    });
    expect((await fetch(`${baseUrl}/api/v1/tokens/balance`)).status).toBe(401);
    const reports = join(work, 'reports');
    const { stdout } = await run(join(project, 'node_modules/.bin/content-contracts'), ['--base-url', baseUrl, '--level', 'strict', '--report-dir', reports], { cwd: project, maxBuffer: 64 << 20 });
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^contracts: \d+ passed, 0 failed, 0 skipped, 0 unverified$/);
    expect(readdirSync(reports)).toEqual(expect.arrayContaining(['contracts-junit.xml', 'contracts-summary.json']));
  }, 120_000);
});
