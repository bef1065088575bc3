import { afterEach, describe, expect, it } from 'vitest';
import { assertContract } from '../support/contract.js';
import { serve, type Served } from './support.js';

const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));

interface Feed {
  status: number;
  headers: Headers;
  /** The next `n` events, parsed; each entry checked against the contract's JournalEntry. */
  next(n: number): Promise<Array<{ id: string; event: string; entry: any }>>;
  close(): void;
}

async function follow(s: Served, query = '', lastEventId?: string): Promise<Feed> {
  const abort = new AbortController();
  const res = await fetch(`${s.base}/_sim/journal/stream${query}`, { headers: lastEventId ? { 'Last-Event-ID': lastEventId } : {}, signal: abort.signal });
  assertContract({ method: 'GET', url: `/_sim/journal/stream${query}`, status: res.status, headers: Object.fromEntries(res.headers), body: '' });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    status: res.status,
    headers: res.headers,
    async next(n) {
      const events: Array<{ id: string; event: string; entry: any }> = [];
      while (events.length < n) {
        const end = buffer.indexOf('\n\n');
        if (end === -1) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended after ${events.length} events`);
          buffer += value;
          continue;
        }
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
        if (!fields.data) continue;
        const entry = JSON.parse(fields.data);
        // The entry has the shape the journal's own listing documents.
        assertContract({ method: 'GET', url: '/_sim/journal', status: 200, headers: { 'content-type': 'application/json', 'x-correlation-id': 'corr_x' }, body: JSON.stringify({ data: [entry], size: 1000 }) });
        events.push({ id: fields.id ?? '', event: fields.event ?? '', entry });
      }
      return events;
    },
    close: () => abort.abort(),
  };
}

describe('the journal, live', () => {
  it('streams each new entry of one account as a server-sent event, redacted, and no other account\'s', async () => {
    const s = await serve();
    running.push(s);
    const me = await s.account();
    const other = await s.account();
    const feed = await follow(s, `?accountId=${me.id}`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(feed.headers.get('cache-control')).toBe('no-store');
    expect(feed.headers.get('access-control-allow-origin')).toBeNull();

    await s.call('GET', '/api/v1/tokens/balance', { key: other.key });
    await s.call('GET', '/api/v1/tokens/balance', { key: me.key });
    await s.call('POST', '/api/v1/targets', { key: me.key, body: { name: 'Live', slug: 'live' } });
    const [first, second] = await feed.next(2);
    expect(first!.event).toBe('entry');
    expect([first!.entry.operationId, second!.entry.operationId]).toEqual(['getTokenBalance', 'createTarget']);
    expect(first!.entry.accountId).toBe(me.id);
    expect(Number(second!.id)).toBe(second!.entry.seq);
    expect(JSON.stringify([first, second])).not.toContain(me.key);
    feed.close();
  });

  it('sends what a reconnecting client missed (Last-Event-ID), and ends when the server stops', async () => {
    const s = await serve();
    running.push(s);
    const me = await s.account();
    await s.call('GET', '/api/v1/tokens/balance', { key: me.key });
    const seen = (await s.call('GET', `/_sim/journal?accountId=${me.id}`, { key: null })).json.data[0].seq as number;
    await s.call('GET', '/api/v1/targets', { key: me.key });
    await s.call('GET', '/api/v1/builds', { key: me.key });
    const feed = await follow(s, `?accountId=${me.id}`, String(seen));
    const missed = await feed.next(2);
    expect(missed.map((e) => e.entry.operationId)).toEqual(['listTargets', 'listBuilds']);

    s.simulator.internal.journal.endFeeds();
    await expect(feed.next(1)).rejects.toThrow(/ended/);
  });

  it('refuses a bad filter with the spec\'s error, like the journal itself', async () => {
    const s = await serve();
    running.push(s);
    const res = await fetch(`${s.base}/_sim/journal/stream?status=abc`);
    const body = await res.text();
    assertContract({ method: 'GET', url: '/_sim/journal/stream?status=abc', status: res.status, headers: Object.fromEntries(res.headers), body });
    expect(res.status).toBe(400);
    expect(JSON.parse(body).details.fields[0].path).toBe('query.status');
  });
});
