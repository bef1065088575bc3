import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from './support.js';

const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));

async function started(options = {}) {
  const served = await serve(options);
  running.push(served);
  return served;
}

const control = { key: null } as const;

async function target(s: Served, key: string, slug = 'retry-brand') {
  return (await s.call('POST', '/api/v1/targets', { key, body: { name: 'Retry', slug, brandKit: { voice: 'v', tone: 't' } } })).json.id as string;
}

describe('fault injection', () => {
  it('tests a client\'s retries end to end: the next 2 createBuild calls answer 503 with Retry-After: 1, the journal shows 3 attempts', async () => {
    const s = await started();
    const me = await s.account();
    const targetId = await target(s, me.key);
    const rule = await s.call('POST', '/_sim/faults', { ...control, body: { accountId: me.id, operationId: 'createBuild', response: { status: 503, retryAfterSeconds: 1 }, times: 2 } });
    expect(rule.status).toBe(201);

    // A client that retries on 503 after Retry-After seconds, at most 3 attempts.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await s.call('POST', '/api/v1/builds', { key: me.key, body: { targetId, kind: 'blog', objective: 'Retries' }, headers: { 'Idempotency-Key': 'retry-1' } });
      statuses.push(res.status);
      if (res.status !== 503) break;
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.json.code).toBe('SERVICE_UNAVAILABLE');
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
    }
    expect(statuses).toEqual([503, 503, 202]);

    const journal = await s.call('GET', `/_sim/journal?accountId=${me.id}&operationId=createBuild`, control);
    expect(journal.json.data.map((e: { status: number; injected: string | null }) => [e.status, e.injected])).toEqual([[202, null], [503, rule.json.id], [503, rule.json.id]]);
    // The rule has run out.
    expect((await s.call('GET', `/_sim/faults?accountId=${me.id}`, control)).json.data).toEqual([]);
  });

  it('keeps parallel jobs apart: one account\'s rules, journal and reset never touch another\'s', async () => {
    const s = await started();
    const [a, b] = [await s.account(), await s.account()];
    await s.call('POST', '/_sim/faults', { ...control, body: { accountId: a.id, path: '/api/v1/tokens', response: { status: 500 } } });
    expect((await s.call('GET', '/api/v1/tokens/balance', { key: a.key })).status).toBe(500);
    expect((await s.call('GET', '/api/v1/tokens/balance', { key: b.key })).status).toBe(200);
    const journalOf = async (who: { id: string }) => (await s.call('GET', `/_sim/journal?accountId=${who.id}`, control)).json.data as Array<{ accountId: string; status: number }>;
    expect((await journalOf(a)).every((e) => e.accountId === a.id)).toBe(true);
    expect((await journalOf(b)).map((e) => e.status)).toEqual([200]);

    await s.call('POST', `/_sim/accounts/${a.id}/reset`, { ...control, body: {} });
    expect((await s.call('GET', '/api/v1/tokens/balance', { key: a.key })).status).toBe(200); // its rule went with the reset
    expect(await journalOf(b)).toHaveLength(1);
    expect((await journalOf(a)).map((e) => e.status)).toEqual([200]);
  });

  it('waits, drops the connection, or storms 429 with consistent headers', async () => {
    const s = await started();
    const me = await s.account();
    await s.call('POST', '/_sim/faults', { ...control, body: { accountId: me.id, operationId: 'getTokenBalance', latencyMs: 300, times: 1 } });
    const slow = await s.call('GET', '/api/v1/tokens/balance', { key: me.key });
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(290);

    await s.call('POST', '/_sim/faults', { ...control, body: { accountId: me.id, operationId: 'getTokenBalance', drop: true, times: 1 } });
    await expect(fetch(`${s.base}/api/v1/tokens/balance`, { headers: { Authorization: `Bearer ${me.key}` } })).rejects.toThrow();

    await s.call('POST', '/_sim/faults', { ...control, body: { accountId: me.id, operationId: 'listTargets', response: { status: 429, retryAfterSeconds: 7 }, times: 3 } });
    for (let i = 0; i < 3; i++) {
      const limited = await s.call('GET', '/api/v1/targets', { key: me.key });
      expect(limited.status).toBe(429);
      expect(limited.json.details).toMatchObject({ retryAfterSeconds: 7 });
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(limited.headers.get('retry-after')).toBe('7');
    }
    expect((await s.call('GET', '/api/v1/targets', { key: me.key })).status).toBe(200);
  });

  it('runs out at a virtual instant, and draws its probability from the seed', async () => {
    const outcomes = async () => {
      const s = await started({ frozenAt: '2026-03-02T09:00:00Z', seed: 'faulty' });
      await s.call('POST', '/_sim/faults', { ...control, body: { operationId: 'getTokenBalance', response: { status: 500 }, probability: 0.5, until: '2026-03-02T09:01:00Z' } });
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) seen.push((await s.call('GET', '/api/v1/tokens/balance')).status);
      await s.call('POST', '/_sim/clock/advance', { ...control, body: { seconds: 60 } });
      const after = (await s.call('GET', '/api/v1/tokens/balance')).status;
      return { seen, after };
    };
    const first = await outcomes();
    expect(first.seen).toContain(500);
    expect(first.seen).toContain(200);
    expect(first.after).toBe(200);
    expect((await outcomes()).seen).toEqual(first.seen);
  });

  it('takes a one-off fault from a Prefer header, marked as injected', async () => {
    const s = await started();
    const unavailable = await s.call('GET', '/api/v1/tokens/balance', { headers: { Prefer: 'code=503' } });
    expect(unavailable.status).toBe(503);
    const late = await s.call('GET', '/api/v1/tokens/balance', { headers: { Prefer: 'delay=200' } });
    expect(late.status).toBe(200);
    expect(late.ms).toBeGreaterThanOrEqual(190);
    const odd = await s.call('GET', '/api/v1/tokens/balance', { headers: { Prefer: 'code=418' } });
    expect(odd.status).toBe(400);
    expect(odd.json.details.fields[0].path).toBe('header.Prefer');
    const entries = (await s.call('GET', '/_sim/journal?operationId=getTokenBalance', control)).json.data;
    expect(entries.map((e: { injected: string | null }) => e.injected)).toEqual([null, 'prefer', 'prefer']);
  });

  it('refuses a rule that could only break the contract or never happen, and lists and removes rules', async () => {
    const s = await started();
    const refuse = async (body: unknown) => (await s.call('POST', '/_sim/faults', { ...control, body })).json.details.fields[0].path;
    expect(await refuse({ operationId: 'getTokenBalance' })).toBe('body');
    expect(await refuse({ operationId: 'noSuchOperation', drop: true })).toBe('body.operationId');
    expect(await refuse({ response: { status: 404 } })).toMatch(/^body\.response\.status/);
    expect(await refuse({ latencyMs: { min: 5, max: 1 } })).toBe('body.latencyMs');
    const rule = (await s.call('POST', '/_sim/faults', { ...control, body: { operationId: 'getTokenBalance', response: { status: 500 } } })).json;
    expect((await s.call('GET', '/_sim/faults', control)).json.data).toEqual([rule]);
    expect((await s.call('DELETE', `/_sim/faults/${rule.id}`, control)).status).toBe(204);
    expect((await s.call('DELETE', `/_sim/faults/${rule.id}`, control)).status).toBe(404);
    expect((await s.call('GET', '/api/v1/tokens/balance')).status).toBe(200);
  });
});
