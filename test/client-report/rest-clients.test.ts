import { describe, expect, it } from 'vitest';
import { harness } from '../support/harness.js';
import { buildBody, counts, ownAccount } from './support.js';

/**
 * The client report over REST: a client that breaks each rule (each at least twice) sees
 * each rule with its count; a client that keeps them (a key per build, polls every 30 s of
 * its account's clock until the end, waits out a 429, buys after a 402) sees none.
 */
const sim = () => harness({ speed: 'realistic', rateLimits: { perKey: { default: 5 } } });

describe('the client report over REST', () => {
  it('names every rule a careless client breaks, with its count', async () => {
    const h = sim();
    const bad = await ownAccount(h, 'Careless', 6);
    const rw = { key: bad.keys.readWrite };
    const targetId = await h.target(bad.keys.readWrite);

    // Two creations without an Idempotency-Key.
    const a1 = await h.post('/api/v1/builds', buildBody(targetId, 'Espresso at home'), rw);
    const a2 = await h.post('/api/v1/builds', buildBody(targetId, 'Milk steaming'), rw);
    expect([a1.status, a2.status]).toEqual([202, 202]);
    // Polled every 200 ms: the third and fourth reads are too fast.
    for (let i = 0; i < 4; i++) {
      expect((await h.get(`/api/v1/builds/${a1.body.buildId}`, rw)).body.build.status).toBe('pending');
      await bad.advance(200);
    }
    // Told it completed, then read three more times: the second and third are polls after the end.
    await bad.advance(15 * 60_000);
    for (let i = 0; i < 4; i++) {
      expect((await h.get(`/api/v1/builds/${a1.body.buildId}`, rw)).body.build.status).toBe('completed');
      await bad.advance(1000);
    }
    // One build retried twice with a fresh key each time (its answer never read).
    for (const key of ['b-1', 'b-2', 'b-3']) {
      expect((await h.post('/api/v1/builds', buildBody(targetId, 'Grinder burrs'), { ...rw, headers: { 'Idempotency-Key': key } })).status).toBe(202);
      await bad.advance(30_000);
    }
    // One key for three different builds: the service answers the first twice.
    const c = await h.post('/api/v1/builds', buildBody(targetId, 'Water chemistry'), { ...rw, headers: { 'Idempotency-Key': 'c' } });
    expect(c.status).toBe(202);
    for (const objective of ['Tamping', 'Dosing']) {
      const replay = await h.post('/api/v1/builds', buildBody(targetId, objective), { ...rw, headers: { 'Idempotency-Key': 'c' } });
      expect(replay.body).toMatchObject({ buildId: c.body.buildId, idempotent: true });
    }
    // The balance is spent: the same creation retried twice after its 402, nothing bought.
    for (let i = 0; i < 3; i++) {
      expect((await h.post('/api/v1/builds', buildBody(targetId, 'Cold brew'), { ...rw, headers: { 'Idempotency-Key': 'd' } })).status).toBe(402);
    }
    // A read-only key retried on a write (403), a revoked key retried (401): twice each.
    for (let i = 0; i < 3; i++) {
      expect((await h.post('/api/v1/targets', { name: 'X', slug: 'x', description: 'x', brandKit: { voice: 'expert', tone: 'warm' } }, { key: bad.keys.readOnly })).status).toBe(403);
    }
    const revoked = await bad.newKey();
    expect((await h.call('DELETE', `/api/v1/keys/${revoked.id}`, rw)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await h.get('/api/v1/tokens/balance', { key: revoked.value })).status).toBe(401);
    // A 429 retried at once, twice.
    const limited = await bad.newKey();
    for (let i = 0; i < 5; i++) expect((await h.get('/api/v1/tokens/balance', { key: limited.value })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await h.get('/api/v1/tokens/balance', { key: limited.value })).status).toBe(429);

    const report = await bad.report();
    expect(counts(report)).toEqual({
      'poll-too-fast': 2,
      'poll-after-end': 2,
      'retry-before-reset': 2,
      'create-without-idempotency-key': 2,
      'same-body-new-key': 2,
      'idempotency-key-reused': 2,
      'retry-after-402': 2,
      'retry-after-auth-error': 4,
    });
    const poll = report.findings.find((f) => f.rule === 'poll-too-fast') as any;
    expect(poll.source.text).toContain('interval of 30 seconds suggested');
    expect(poll.examples[0]).toMatchObject({ method: 'GET', path: `/api/v1/builds/${a1.body.buildId}`, via: 'rest', at: '2026-03-02T09:00:00.400Z' });
    expect(poll.firstAt).toBe('2026-03-02T09:00:00.400Z');
    expect(poll.lastAt).toBe('2026-03-02T09:00:00.600Z');
    expect(h.simulator.clientReport(bad.accountId)).toEqual(report);

    // Rules switched off for this account are neither shown nor counted; a clear forgets the rest.
    const off = await h.call('PUT', `/_sim/accounts/${bad.accountId}/client-report/rules`, { key: null, body: { off: ['poll-too-fast', 'retry-after-402'] } });
    expect(off.status).toBe(200);
    expect(off.body.rulesOff).toEqual(['poll-too-fast', 'retry-after-402']);
    expect(counts(off.body)).not.toHaveProperty('poll-too-fast');
    const unknown = await h.call('PUT', `/_sim/accounts/${bad.accountId}/client-report/rules`, { key: null, body: { off: ['poll-slowly'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.fields[0].path).toBe('body.off[0]');
    const cleared = await h.call('DELETE', `/_sim/accounts/${bad.accountId}/client-report`, { key: null });
    expect(cleared.body).toEqual({ accountId: bad.accountId, findings: [], rulesOff: ['poll-too-fast', 'retry-after-402'] });
    expect((await h.get('/_sim/accounts/00000000-0000-4000-8000-000000000000/client-report', { key: null })).status).toBe(404);

    // Not part of the state: an account reset starts the report afresh (its rules off too), and so does a restore.
    expect((await h.post('/api/v1/builds', buildBody(targetId, 'Again'), rw)).status).toBe(402);
    expect((await h.post(`/_sim/accounts/${bad.accountId}/reset`, {}, { key: null })).status).toBe(200);
    expect(await bad.report()).toEqual({ accountId: bad.accountId, findings: [], rulesOff: [] });
    const again = await h.post('/api/v1/builds', buildBody(await h.target(bad.keys.readWrite, 'after-reset'), 'Again'), rw);
    expect(again.status).toBe(202);
    expect(counts(await bad.report())).toEqual({ 'create-without-idempotency-key': 1 });
    const snapshot = await h.get('/_sim/snapshot', { key: null });
    expect(JSON.stringify(snapshot.body)).not.toContain('create-without-idempotency-key');
    expect((await h.post('/_sim/restore', snapshot.body, { key: null })).status).toBe(200);
    expect((await bad.report()).findings).toEqual([]);
  });

  it('finds nothing in a client that keeps the rules, on its account’s clock', async () => {
    const h = sim();
    const good = await ownAccount(h, 'Careful', 2);
    const rw = { key: good.keys.readWrite };
    const targetId = await h.target(good.keys.readWrite);
    const reader = await good.newKey();
    // Two distinct builds of the same body, each with its own key, sent together.
    const [first, second] = await Promise.all(
      ['twin-1', 'twin-2'].map((key) => h.post('/api/v1/builds', buildBody(targetId, 'Espresso at home'), { ...rw, headers: { 'Idempotency-Key': key } })),
    );
    expect([first?.status, second?.status]).toEqual([202, 202]);
    // Read right after creation, then every 30 s of the account's clock until the end, then no more.
    for (const build of [first, second]) {
      let status = '';
      for (let polls = 0; status !== 'completed' && polls < 40; polls++) {
        status = (await h.get(`/api/v1/builds/${build?.body.buildId}`, rw)).body.build.status;
        if (status !== 'completed') await good.advance(30_000);
      }
      expect(status).toBe('completed');
    }
    // Out of tokens: a 402, then a purchase, then the same creation with its same key.
    const body = buildBody(targetId, 'Milk steaming');
    expect((await h.post('/api/v1/builds', body, { ...rw, headers: { 'Idempotency-Key': 'steam' } })).status).toBe(402);
    expect((await h.post('/api/v1/tokens/purchases', { bundleId: 'starter' }, { ...rw, headers: { 'Idempotency-Key': 'buy-1' } })).status).toBe(201);
    expect((await h.post('/api/v1/builds', body, { ...rw, headers: { 'Idempotency-Key': 'steam' } })).status).toBe(202);
    // A 403 is answered by using the right key, not by retrying.
    expect((await h.post('/api/v1/targets', { name: 'Y', slug: 'y', description: 'y', brandKit: { voice: 'expert', tone: 'warm' } }, { key: good.keys.readOnly })).status).toBe(403);
    expect((await h.post('/api/v1/targets', { name: 'Y', slug: 'y', description: 'y', brandKit: { voice: 'expert', tone: 'warm' } }, rw)).status).toBe(201);
    // A 429 waited out until X-RateLimit-Reset, then one backed off 1 s, 2 s as the spec allows.
    for (let i = 0; i < 5; i++) expect((await h.get('/api/v1/tokens/balance', { key: reader.value })).status).toBe(200);
    const limited = await h.get('/api/v1/tokens/balance', { key: reader.value });
    expect(limited.status).toBe(429);
    await good.advance(Number(limited.headers['x-ratelimit-reset']) * 1000 - (await good.now()));
    for (let i = 0; i < 5; i++) expect((await h.get('/api/v1/tokens/balance', { key: reader.value })).status).toBe(200);
    expect((await h.get('/api/v1/tokens/balance', { key: reader.value })).status).toBe(429);
    for (const wait of [1000, 2000]) {
      await good.advance(wait);
      expect((await h.get('/api/v1/tokens/balance', { key: reader.value })).status).toBe(429);
    }

    expect((await good.report()).findings).toEqual([]);
  });
});
