import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_BUFFER_LIMIT } from './bounded-event-stream.js';
import { serveFetch } from './fetch-bridge.js';

let server: Server | undefined;
let socket: Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('an event stream served from a Fetch handler (what /mcp answers a GET with)', () => {
  it('is cut off with a last event once its client stops reading, and its source is cancelled', async () => {
    const event = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(16 * 1024) } })}\n\n`;
    let produced = 0;
    let cancelled = false;
    // A source as eager as the MCP SDK's: an event whenever the reader asks.
    const handler = async () => new Response(new ReadableStream<Uint8Array>({
      pull(controller) {
        produced += event.length;
        controller.enqueue(new TextEncoder().encode(event));
      },
      cancel() {
        cancelled = true;
      },
    }), { headers: { 'content-type': 'text/event-stream' } });
    server = createServer((req, res) => void serveFetch(req, res, handler));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise<void>((resolve) => socket!.once('connect', resolve));
    socket.write('GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
    socket.pause();

    for (let i = 0; i < 1000 && !cancelled; i++) await new Promise((r) => setTimeout(r, 10));
    expect(cancelled).toBe(true);
    const atCut = produced;
    await new Promise((r) => setTimeout(r, 200));
    expect(produced).toBe(atCut); // nothing more is made for a client that is gone
    // What was made is what the kernel's buffers hold plus the limit: not without end.
    expect(produced).toBeLessThan(64 * 1024 * 1024);

    let tail = '';
    socket.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('latin1')).slice(-2048)));
    const closed = new Promise<void>((resolve) => socket!.once('close', () => resolve()));
    socket.resume();
    await closed;
    const last = tail.slice(tail.lastIndexOf('event: '));
    expect(last).toMatch(/^event: closed\ndata: /);
    expect(JSON.parse(last.slice('event: closed\ndata: '.length, last.indexOf('\n\n')))).toMatchObject({ reason: 'slow-reader', limitBytes: STREAM_BUFFER_LIMIT });
  }, 30_000);
});
