import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';

/**
 * Slow connections past the process's descriptor limit: a server started under
 * `prlimit --nofile=256` stays up, and /healthz answers within a second during the flood
 * and after it, because slow clients are pushed out before descriptors run out.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const DESCRIPTORS = 256;
const SLOW_CLIENTS = 600;
let child: ChildProcess | undefined;
const sockets: Socket[] = [];
let stderr = '';

afterAll(() => {
  sockets.splice(0).forEach((s) => s.destroy());
  child?.kill('SIGKILL');
});

function start(): Promise<string> {
  child = spawn('prlimit', [`--nofile=${DESCRIPTORS}:${DESCRIPTORS}`, '--', process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--quiet'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out} ${stderr}`)), 30_000);
    child!.stdout!.on('data', (chunk) => {
      out += chunk;
      const base = /listening on\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (base && out.includes('empty account')) (clearTimeout(timer), resolve(base));
    });
    child!.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

/** Half a request, then nothing: a header that never ends, or a body that never comes. */
function slowClient(port: number, i: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.on('connect', () => {
      socket.write(
        i % 2 === 0
          ? 'GET /api/v1/tokens/balance HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '
          : 'POST /api/v1/targets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":',
      );
      resolve();
    });
  });
}

async function healthz(base: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) });
  const text = await response.text();
  assertContract({ method: 'GET', url: '/healthz', status: response.status, headers: Object.fromEntries(response.headers), body: text });
  expect(response.status).toBe(200);
  return performance.now() - started;
}

describe.skipIf(repeatRun)('a connection flood under a low descriptor limit', () => {
  it('keeps the process up, and /healthz answering within a second during and after', async () => {
    const base = await start();
    const port = Number(new URL(base).port);
    const during: number[] = [];
    for (let batch = 0; batch < SLOW_CLIENTS; batch += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => slowClient(port, batch + i)));
      during.push(await healthz(base));
    }
    // More slow clients than the process has descriptors were opened; it serves on.
    expect(sockets.length).toBeGreaterThan(DESCRIPTORS);
    for (let i = 0; i < 5; i++) during.push(await healthz(base));
    expect(child!.exitCode).toBeNull();
    expect(Math.max(...during)).toBeLessThan(1000);
    // Slow clients were cut off, not served forever: most of the flood is closed already.
    const open = sockets.filter((s) => !s.destroyed && s.readyState === 'open').length;
    expect(open).toBeLessThan(DESCRIPTORS);

    sockets.splice(0).forEach((s) => s.destroy());
    const after: number[] = [];
    for (let i = 0; i < 5; i++) after.push(await healthz(base));
    expect(Math.max(...after)).toBeLessThan(1000);
    expect(child!.exitCode).toBeNull();
    expect(stderr).not.toMatch(/unexpected fault/);
  }, 120_000);
});
