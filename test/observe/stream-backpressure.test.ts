import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JOURNAL_FEEDS } from '../../src/observe/journal.js';
import { assertContract } from '../support/contract.js';
import { serve, type Served } from './support.js';

const running: Served[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.destroy());
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function started(): Promise<Served> {
  const s = await serve();
  running.push(s);
  return s;
}

/** A client that asks for the live journal and then reads nothing, like a frozen browser tab. */
async function stalledReader(s: Served): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { port } = new URL(s.base);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const before = s.simulator.internal.journal.feeds;
  socket.write('GET /_sim/journal/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  socket.pause();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  for (let i = 0; i < 200 && s.simulator.internal.journal.feeds === before; i++) await new Promise((r) => setTimeout(r, 5));
  expect(s.simulator.internal.journal.feeds).toBe(before + 1);
  return { socket, closed };
}

/** Calls whose journal entries are large (a request body is kept up to 4 KiB): each is ~4.5 KB of events. */
function largeEntryCall(s: Served, me: { key: string }): Promise<Response> {
  return fetch(`${s.base}/api/v1/targets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${me.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'x'.repeat(5000), slug: 'too-long' }),
  });
}

describe('the live journal, with a client that stops reading', () => {
  it('cuts off a stalled reader once 1 MiB waits for it, with a last event saying why, and keeps serving one that reads', async () => {
    const s = await started();
    const me = await s.account(1000);
    const reading = await fetch(`${s.base}/_sim/journal/stream?accountId=${me.id}`);
    const reader = reading.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        received += value;
      }
    })().catch(() => {});
    const stalled = await stalledReader(s);
    expect(s.simulator.internal.journal.feeds).toBe(2);

    // Traffic until the stalled feed is cut off: kernel buffers first, then 1 MiB in the server.
    let calls = 0;
    for (; calls < 20_000 && s.simulator.internal.journal.feeds === 2; calls++) await (await largeEntryCall(s, me)).text();
    expect(s.simulator.internal.journal.feeds, `still subscribed after ${calls} calls`).toBe(1);

    // What was waiting for it ends with the reason.
    stalled.socket.resume();
    let tail = '';
    stalled.socket.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('latin1')).slice(-4096)));
    await stalled.closed;
    const last = tail.slice(tail.lastIndexOf('event: '));
    expect(last, tail.slice(-300)).toMatch(/^event: closed\ndata: \{.*\}\n\n/);
    const reason = JSON.parse(last.slice('event: closed\ndata: '.length, last.indexOf('\n\n')));
    expect(reason).toMatchObject({ reason: 'slow-reader', limitBytes: 1024 * 1024 });
    expect(reason.bufferedBytes).toBeGreaterThan(1024 * 1024);

    // The client that reads got every entry and is still fed.
    await (await largeEntryCall(s, me)).text();
    for (let i = 0; i < 200 && (received.match(/event: entry/g) ?? []).length < calls + 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect((received.match(/event: entry/g) ?? []).length).toBe(calls + 1);
    expect(s.simulator.internal.journal.feeds).toBe(1);
    await reader.cancel();
  }, 60_000);

  it('closes the connection of a reader that does not take even its last event', async () => {
    const s = await started();
    const me = await s.account(1000);
    const stalled = await stalledReader(s);
    for (let calls = 0; calls < 20_000 && s.simulator.internal.journal.feeds === 1; calls++) await (await largeEntryCall(s, me)).text();
    expect(s.simulator.internal.journal.feeds).toBe(0);
    // Past the 2 s grace the server has closed the connection and dropped what it held for it:
    // reading now finds the end of the connection, without the last event.
    await new Promise((r) => setTimeout(r, 3000));
    let tail = '';
    stalled.socket.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('latin1')).slice(-4096)));
    stalled.socket.resume();
    const closedWithin = await Promise.race([stalled.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
    expect(closedWithin).toBe(true);
    expect(tail).not.toContain('event: closed');
  }, 60_000);

  it(`serves ${MAX_JOURNAL_FEEDS} feeds at once; one more answers 503 SERVICE_UNAVAILABLE with Retry-After until one closes`, async () => {
    const s = await started();
    const feeds = await Promise.all(Array.from({ length: MAX_JOURNAL_FEEDS }, async () => {
      const abort = new AbortController();
      const res = await fetch(`${s.base}/_sim/journal/stream`, { signal: abort.signal });
      expect(res.status).toBe(200);
      // Held: fetch cancels the body of a response that is garbage-collected, which would close the feed.
      return { abort: () => abort.abort(), res };
    }));
    expect(s.simulator.internal.journal.feeds).toBe(MAX_JOURNAL_FEEDS);
    const refused = await fetch(`${s.base}/_sim/journal/stream`);
    const body = await refused.text();
    assertContract({ method: 'GET', url: '/_sim/journal/stream', status: refused.status, headers: Object.fromEntries(refused.headers), body });
    expect(refused.status).toBe(503);
    expect(JSON.parse(body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { limit: MAX_JOURNAL_FEEDS } });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);

    feeds[0]!.abort();
    for (let i = 0; i < 200 && s.simulator.internal.journal.feeds === MAX_JOURNAL_FEEDS; i++) await new Promise((r) => setTimeout(r, 5));
    const again = await fetch(`${s.base}/_sim/journal/stream`);
    expect(again.status).toBe(200);
    await again.body!.cancel();
    feeds.forEach((f) => f.abort());
    expect(feeds.every((f) => f.res.status === 200)).toBe(true);
  });
});
