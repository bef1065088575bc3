import { describe, expect, it } from 'vitest';
import { harness } from './support/harness.js';

const DAY = 24 * 60 * 60 * 1000;

describe('Idempotency-Key on build creation (spec, Endpoints rules 1-2)', () => {
  async function setup() {
    const h = harness();
    const targetId = await h.target();
    const create = (key: string, objective = 'Write about grinders') =>
      h.post('/api/v1/builds', { targetId, kind: 'blog', objective }, { headers: { 'Idempotency-Key': key } });
    return { h, targetId, create };
  }

  it('replays the same build with idempotent: true, creating and charging nothing', async () => {
    const { h, create } = await setup();
    const first = await create('op-1');
    expect(first.status).toBe(202);
    const balance = (await h.get('/api/v1/tokens/balance')).body;
    const replay = await create('op-1');
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ buildId: first.body.buildId, correlationId: first.body.correlationId, idempotent: true });
    expect((await h.get('/api/v1/tokens/balance')).body).toEqual(balance);
    expect((await h.get('/api/v1/builds')).body.data).toHaveLength(1);
    expect((await h.get('/api/v1/tokens/transactions?type=build_charge')).body.data).toHaveLength(1);
  });

  it('creates exactly one build when two identical requests arrive at once', async () => {
    const { h, create } = await setup();
    const results = await Promise.all([create('same'), create('same'), create('same')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 202]);
    expect(new Set(results.map((r) => r.body.buildId)).size).toBe(1);
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(99);
  });

  it('creates a new build once 24 hours of virtual time have passed', async () => {
    const { h, create } = await setup();
    const first = await create('daily');
    h.advance(DAY - 1);
    expect((await create('daily')).body.buildId).toBe(first.body.buildId);
    h.advance(1);
    const fresh = await create('daily');
    expect(fresh.status).toBe(202);
    expect(fresh.body.buildId).not.toBe(first.body.buildId);
    expect((await create('daily')).body).toMatchObject({ buildId: fresh.body.buildId, idempotent: true });
  });

  it('creates a new build after 24 hours whatever the retention sweep\'s turn, among many accounts', async () => {
    const { h, create } = await setup();
    // Many accounts, as on a simulator shared by CI jobs: each request sweeps two others in turn.
    for (let i = 0; i < 7; i++) expect((await h.post('/_sim/accounts', {}, { key: null })).status).toBe(201);
    const first = await create('shared-day');
    h.advance(DAY);
    // However many calls came between, the key past its window is forgotten by its own lookup.
    for (let calls = 0; calls < 4; calls++) {
      const again = await create('shared-day');
      expect(again.status, `after ${calls} reads`).toBe(202);
      expect(again.body.buildId).not.toBe(first.body.buildId);
      h.advance(DAY);
      await h.get('/api/v1/tokens/balance');
    }
  });

  it('lets an account\'s expired keys go even when that account never calls again (the retention sweep)', async () => {
    const { h, create } = await setup();
    for (let i = 0; i < 5; i++) await create(`once-${i}`);
    const mine = h.simulator.internal.store.findKey(h.simulator.keys.readWrite)!.accountId;
    const records = () => h.simulator.internal.store.account(mine)!.idempotency.size;
    expect(records()).toBe(5);
    h.advance(DAY - 1);
    // Other accounts' calls carry the sweep; within the window nothing may go.
    for (let i = 0; i < 10; i++) await h.get('/api/v1/tokens/balance', { key: h.keys.readOnly });
    expect(records()).toBe(5);
    h.advance(1);
    for (let i = 0; i < 10; i++) await h.get('/api/v1/tokens/balance', { key: h.keys.emptyAccount });
    expect(records()).toBe(0);
  });

  it('scopes keys per account', async () => {
    const { h, targetId, create } = await setup();
    const first = await create('shared-key');
    const other = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    const otherTarget = await h.target(other);
    const res = await h.post('/api/v1/builds', { targetId: otherTarget, kind: 'blog', objective: 'x' }, { key: other, headers: { 'Idempotency-Key': 'shared-key' } });
    expect(res.status).toBe(202);
    expect(res.body.buildId).not.toBe(first.body.buildId);
    expect(targetId).not.toBe(otherTarget);
  });

  it('replays without charging even when the balance is now too low', async () => {
    const h = harness();
    const account = (await h.post('/_sim/accounts', { balance: 1 }, { key: null })).body.keys.readWrite;
    const targetId = await h.target(account);
    const body = { targetId, kind: 'blog', objective: 'x' };
    expect((await h.post('/api/v1/builds', body, { key: account, headers: { 'Idempotency-Key': 'k' } })).status).toBe(202);
    const replay = await h.post('/api/v1/builds', body, { key: account, headers: { 'Idempotency-Key': 'k' } });
    expect(replay.status).toBe(200);
    const fresh = await h.post('/api/v1/builds', body, { key: account, headers: { 'Idempotency-Key': 'k2' } });
    expect(fresh.status).toBe(402);
  });

  it('refuses an Idempotency-Key that is too long', async () => {
    const { create } = await setup();
    const res = await create('k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.details.fields[0].path).toBe('header.idempotency-key');
  });
});
