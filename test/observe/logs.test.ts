import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { assertContract } from '../support/contract.js';

/** The CLI's request log as JSON lines (pino): one object a request, every field a log shipper needs, no secret. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));

describe('content-sim serve --log-format json', () => {
  it('writes one JSON object a request on stdout, the banner on stderr, and never a key', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--log-format', 'json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    child.stdout!.on('data', (c) => (stdout += c));
    const banner = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no banner: ${err}`)), 30_000);
      child.stderr!.on('data', (c) => {
        err += c;
        if (err.includes('empty account')) (clearTimeout(timer), resolve(err));
      });
    });
    const base = /listening on\s+(http:\/\/\S+)/.exec(banner)![1]!;
    const key = /read\+write\s+(svc_live_[0-9a-f]{40})/.exec(banner)![1]!;
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, { headers });
      const body = await res.text();
      assertContract({ method: 'GET', url: path, status: res.status, headers: Object.fromEntries(res.headers), body });
      return res;
    };
    const ok = await get('/api/v1/tokens/balance', { Authorization: `Bearer ${key}` });
    await get(`/api/v1/tokens/balance?api_key=${key}`);
    await new Promise((r) => setTimeout(r, 300)); // the destination writes asynchronously
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30, msg: 'request', method: 'GET', url: '/api/v1/tokens/balance', status: 200, operationId: 'getTokenBalance',
      errorCode: null, keyHint: `svc_live_…${key.slice(-4)}`, correlationId: ok.headers.get('x-correlation-id'), durationMs: expect.any(Number),
    });
    expect(Date.parse(lines[0]!.time as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(lines[1]).toMatchObject({ status: 401, errorCode: 'UNAUTHORIZED', keyHint: null });
    expect(stdout).not.toContain(key);
  });
});
