import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnLoopback, simulatorUnderTest } from './violations/violated-simulator.js';

/**
 * `content-contracts proxy` finishes its work (the recording renamed into place, the report
 * printed and written) however it was launched and stopped: directly on each stop signal,
 * through npx or an npm script whose npm process is killed (npm passes no signal on), and
 * from a shell that has already exited. The command is the built bin (`npm run build`), put
 * in a project's node_modules/.bin as an install puts it.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'dist/contracts/run.js');
const env: NodeJS.ProcessEnv = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('npm_'))), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
const children: ChildProcess[] = [];
let project: string;
let target: { baseUrl: string; close: () => Promise<void> };

beforeAll(async () => {
  target = await serveOnLoopback(simulatorUnderTest());
  project = mkdtempSync(join(tmpdir(), 'proxy-launchers-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'proxy-user', private: true, scripts: { proxy: 'content-contracts proxy' } }));
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  symlinkSync(root, join(project, 'node_modules/content-service-simulator'));
  symlinkSync('../content-service-simulator/dist/contracts/run.js', join(project, 'node_modules/.bin/content-contracts'));
  chmodSync(bin, 0o755);
});

afterAll(async () => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  await target.close();
});

interface Started {
  /** The process to signal: the proxy itself, or the npm process that launched it. */
  pid: number;
  /** Everything the proxy printed so far. */
  output: () => string;
  dir: string;
}

/** The proxy's arguments: a recording and a report directory of this run's own. */
function proxyArgs(dir: string): string[] {
  return ['--target', target.baseUrl, '--record', join(dir, 'session.har'), '--report-dir', join(dir, 'reports')];
}

function launch(name: string, command: string, args: (dir: string) => string[]): Started {
  const dir = mkdtempSync(join(project, `${name}-`));
  const child = spawn(command, args(dir), { cwd: project, env: { ...env, PATH: `${join(project, 'node_modules/.bin')}:${env.PATH}` }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  return { pid: child.pid!, output: () => out + (existsSync(join(dir, 'out.log')) ? readFileSync(join(dir, 'out.log'), 'utf8') : ''), dir };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, output: () => string, ms = 30_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < ms; await new Promise((r) => setTimeout(r, 100))) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`${what} within ${ms / 1000} s; the proxy's output:\n${output()}`);
}

/** Starts it, sends one call through it, stops it the given way, and checks what it left behind. */
async function stopsAndFinishes(started: Started, stop: (s: Started) => void, reason: RegExp): Promise<void> {
  const url = await until('no "listening on"', () => /listening on (http:\/\/\S+),/.exec(started.output())?.[1], started.output);
  expect((await fetch(`${url}/api/v1/tokens/balance`)).status).toBe(401);
  stop(started);
  const report = join(started.dir, 'reports/contracts-proxy.json');
  await until('no report written', () => (existsSync(report) ? true : undefined), started.output);
  await until('still listening', () => fetch(url).then(() => undefined, () => true), started.output);
  const har = JSON.parse(readFileSync(join(started.dir, 'session.har'), 'utf8'));
  expect(har.log.entries.map((e: { request: { url: string } }) => e.request.url)).toEqual([`${target.baseUrl}/api/v1/tokens/balance`]);
  expect(readdirSync(started.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  expect(JSON.parse(readFileSync(report, 'utf8')).exchanges).toBe(1);
  await until('no report printed', () => (/contracts proxy: 1 exchanges/.test(started.output()) ? true : undefined), started.output, 5_000);
  expect(started.output()).toMatch(reason);
}

describe.concurrent('content-contracts proxy stops with its launcher and finishes its work', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('started directly, on %s', async (signal) => {
    const started = launch(signal, process.execPath, (dir) => [bin, 'proxy', ...proxyArgs(dir)]);
    await stopsAndFinishes(started, (s) => process.kill(s.pid, signal), new RegExp(`\\(${signal}\\)`));
  }, 40_000);

  it('started through npx, when the npx process is killed', async () => {
    const started = launch('npx', 'npx', (dir) => ['content-contracts', 'proxy', ...proxyArgs(dir)]);
    await stopsAndFinishes(started, (s) => process.kill(s.pid, 'SIGTERM'), /npm \(pid \d+\), which started this command, is gone/);
  }, 40_000);

  it('started through an npm script, when the npm process is killed', async () => {
    const started = launch('script', 'npm', (dir) => ['run', '--silent', 'proxy', '--', ...proxyArgs(dir)]);
    await stopsAndFinishes(started, (s) => process.kill(s.pid, 'SIGTERM'), /npm \(pid \d+\), which started this command, is gone/);
  }, 40_000);

  it('started in the background by a shell that has exited, on the SIGHUP a closed terminal sends', async () => {
    // The shell prints the background pid and exits at once; the proxy, its output in a file, lives on.
    const started = launch('shell', 'sh', (dir) => ['-c', `content-contracts proxy ${proxyArgs(dir).join(' ')} > ${join(dir, 'out.log')} 2>&1 & echo "pid $!"`]);
    const pid = Number(await until('no pid', () => /pid (\d+)/.exec(started.output())?.[1], started.output));
    await stopsAndFinishes(started, () => process.kill(pid, 'SIGHUP'), /\(SIGHUP\)/);
  }, 40_000);
});
