import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { assertContract } from './support/contract.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGTERM')));

/** Starts the CLI on a free port and resolves with its banner once it listens. */
function serve(args: string[]): Promise<string> {
  const child = spawn(tsx, ['src/cli/main.ts', 'serve', '--port', '0', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('empty account')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe('content-sim serve', () => {
  it('prints its base URL and seeded keys, and serves them', async () => {
    const banner = await serve(['--seed', 'cli-test', '--quiet']);
    const baseUrl = /listening on\s+(http:\/\/\S+)/.exec(banner)![1]!;
    const key = /read\+write\s+(svc_live_[0-9a-f]{40})/.exec(banner)![1]!;
    const res = await fetch(`${baseUrl}/api/v1/tokens/balance`, { headers: { Authorization: `Bearer ${key}` } });
    const text = await res.text();
    assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: res.status, headers: Object.fromEntries(res.headers), body: text });
    expect(JSON.parse(text).balance).toBe(100);
  });

  it('gives the same keys for the same seed, and a frozen clock with --frozen', async () => {
    const a = await serve(['--seed', 'same', '--quiet', '--frozen', '2026-05-01T00:00:00Z']);
    const b = await serve(['--seed', 'same', '--quiet']);
    const keysOf = (s: string) => s.slice(s.indexOf('Seeded API keys'));
    expect(keysOf(a)).toBe(keysOf(b));
    expect(a).toContain('frozen at 2026-05-01T00:00:00.000Z');
  });

  it('explains a bad value in one line, without the whole usage, and exits 2', () => {
    const result = run(['--speed', 'warp']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^content-sim: --speed must be .*warp/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toContain('Usage: content-sim');
  });

  it('answers an unknown option with the nearest known one, and a missing value with how to give it', () => {
    expect(run(['--prot', '4010']).stderr).toBe('content-sim: unknown option --prot: did you mean --port? (content-sim --help lists every option)\n');
    expect(run(['--state-flie', 'x.json']).stderr).toContain('did you mean --state-file?');
    expect(run(['--zzz']).stderr).toBe('content-sim: unknown option --zzz (content-sim --help lists every option)\n');
    const missing = run(['--port']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('content-sim: --port needs a value: --port <value> or --port=<value> (content-sim --help lists every option)\n');
  });

  it('says a state file\'s directory is missing, and how to make it, instead of a raw ENOENT', () => {
    const result = run(['--state-file', '/no-such-dir-for-content-sim/state.json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('content-sim: --state-file /no-such-dir-for-content-sim/state.json: the directory /no-such-dir-for-content-sim does not exist; create it (mkdir -p /no-such-dir-for-content-sim) or give a path in an existing directory\n');
    expect(result.stderr).not.toMatch(/ENOENT|\.tmp/);
  });

  it('says a port is in use, with --port 0 and PORT= as the ways out', async () => {
    const banner = await serve(['--quiet']);
    const port = /listening on\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(banner)![1]!;
    const result = spawnSync(tsx, ['src/cli/main.ts', '--port', port, '--quiet'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`content-sim: port ${port} is already in use on 127.0.0.1: stop what holds it, or pick another port with --port <n> (or PORT=<n>); --port 0 picks a free one\n`);
  });

  it('keeps the dashboard\'s own reads out of the request log, unless --log-dashboard asks for them', async () => {
    for (const [args, logged] of [[[], false], [['--log-dashboard'], true]] as const) {
      const child = spawn(tsx, ['src/cli/main.ts', 'serve', '--port', '0', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (chunk) => (out += chunk));
      await until(() => out.includes('empty account'));
      const baseUrl = /listening on\s+(http:\/\/\S+)/.exec(out)![1]!;
      for (const [path, headers] of [['/_sim/clock', { 'x-sim-client': 'dashboard' }], ['/healthz', {}]] as const) {
        const res = await fetch(`${baseUrl}${path}`, { headers });
        assertContract({ method: 'GET', url: path, status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() });
      }
      await until(() => out.includes(' GET /healthz '));
      expect(out.includes(' GET /_sim/clock '), `logged with ${args.join(' ') || 'no option'}`).toBe(logged);
      child.kill('SIGTERM');
    }
  });
});

function run(args: string[]) {
  return spawnSync(tsx, ['src/cli/main.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the server');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
