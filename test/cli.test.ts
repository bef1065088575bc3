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

  it('explains a bad option and exits 2', () => {
    const result = spawnSync(tsx, ['src/cli/main.ts', '--speed', 'warp'], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('speed must be');
    expect(result.stderr).toContain('Usage: content-sim');
  });
});
