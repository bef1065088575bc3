import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** The CLI stops cleanly: stalled clients cannot hold it, a second signal is immediate, npm start leaves nothing behind. */
const root = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  sockets.splice(0).forEach((s) => s.destroy());
  children.splice(0).forEach((c) => c.kill('SIGKILL'));
});

function start(command: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: '0' } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const port = /listening on\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (port && out.includes('empty account')) (clearTimeout(timer), resolve({ child, port: Number(port) }));
    });
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/** A client that sends half its headers and then nothing, and one that announces a body it sends slowly. */
async function stallers(port: number): Promise<void> {
  const open = () =>
    new Promise<Socket>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket));
      socket.on('error', () => {});
      sockets.push(socket);
    });
  (await open()).write('GET /api/v1/tokens/balance HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  (await open()).write('POST /api/v1/targets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":');
  await new Promise((r) => setTimeout(r, 100));
}

describe('content-sim serve stops cleanly', () => {
  it('exits 0 within the drain timeout although clients stall', async () => {
    const { child, port } = await start(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--quiet', '--drain-timeout', '1']);
    await stallers(port);
    const started = performance.now();
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(performance.now() - started).toBeLessThan(1000 + 1000);
  });

  it('drains and exits 0 on the SIGHUP a closing terminal sends, as on SIGTERM', async () => {
    const { child } = await start(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--drain-timeout', '1']);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.kill('SIGHUP');
    // Node's own SIGHUP would end it at once with no exit code of 0 and no word of draining.
    expect(await exited(child)).toBe(0);
    expect(stderr).toContain('content-sim: SIGHUP: draining');
  });

  it('stops at once on a second signal', async () => {
    const { child, port } = await start(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--quiet', '--drain-timeout', '60']);
    await stallers(port);
    const started = performance.now();
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('npm start passes SIGTERM on: nothing keeps the port', async () => {
    const { child, port } = await start('npm', ['start', '--silent', '--', '--port', '0', '--quiet', '--drain-timeout', '1']);
    child.kill('SIGTERM');
    await exited(child);
    await new Promise((r) => setTimeout(r, 1_500));
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/tokens/balance`)).rejects.toThrow();
  });
});
