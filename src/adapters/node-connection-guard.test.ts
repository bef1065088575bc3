import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardConnections } from './node-connection-guard.js';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.destroy());
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

/** A server whose answers wait until released: connections stay "being answered". */
async function serve(limits: { maxConnections: number; maxPerAddress: number }) {
  const held: Array<() => void> = [];
  server = createServer((req, res) => {
    if (req.url === '/hold') held.push(() => res.end('held'));
    else res.end('ok');
  });
  guardConnections(server, limits);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, held };
}

function raw(port: number, text: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      let got = '';
      const answer = new Promise<string>((done) => {
        socket.on('data', (c) => (got += c));
        socket.on('close', () => done(got));
        socket.on('error', () => done(got));
      });
      resolve({ socket, answer });
    });
    sockets.push(socket);
  });
}

const settle = () => new Promise((r) => setTimeout(r, 100));

describe('the connection guard', () => {
  it('pushes out the oldest client that is still sending its request, so a real request is answered', async () => {
    const { port } = await serve({ maxConnections: 3, maxPerAddress: 3 });
    const slow = [];
    for (let i = 0; i < 3; i++) slow.push(await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\n'));
    await settle();
    const real = await raw(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await real.answer).toMatch(/^HTTP\/1.1 200/);
    expect(await slow[0]!.answer).toBe(''); // the oldest slow client was closed, unanswered
    expect(slow[1]!.socket.destroyed).toBe(false);
  });

  it('refuses a newcomer with 503 in the error shape when every connection is being answered', async () => {
    const { port, held } = await serve({ maxConnections: 10, maxPerAddress: 2 });
    await raw(port, 'GET /hold HTTP/1.1\r\nHost: x\r\n\r\n');
    await raw(port, 'GET /hold HTTP/1.1\r\nHost: x\r\n\r\n');
    await settle();
    const refused = await raw(port, 'GET /ok HTTP/1.1\r\nHost: x\r\n\r\n');
    const text = await refused.answer;
    expect(text).toMatch(/^HTTP\/1.1 503 /);
    expect(text).toMatch(/retry-after: 1/i);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { limit: 'connectionsPerAddress', maxPerAddress: 2 } });
    expect(typeof body.error).toBe('string');
    held.forEach((release) => release());
  });
});
