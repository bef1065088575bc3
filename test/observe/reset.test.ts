import { describe, expect, it } from 'vitest';
import { harness, type Harness } from '../support/harness.js';

const control = { key: null } as const;

/** The saved state less what every request moves (the correlation-id stream) and the real time of the save. */
async function state(h: Harness) {
  const { savedAt: _s, streams: { correlationIds: _c, ...streams }, ...rest } = (await h.get('/_sim/snapshot', control)).body;
  return { ...rest, streams };
}

async function account(h: Harness, balance: number) {
  const created = (await h.post('/_sim/accounts', { balance }, control)).body;
  return { id: created.accountId as string, key: created.keys.readWrite as string };
}

describe('POST /_sim/reset', () => {
  it('puts the whole simulator back to its seeded start, so what follows replays byte for byte', async () => {
    const fresh = harness({ speed: 'instant' });
    const start = await state(fresh);
    const firstTarget = await fresh.target(undefined, 'first');

    const h = harness({ speed: 'instant' });
    await account(h, 50);
    const targetId = await h.target();
    await h.build({ targetId });
    h.advance(3_600_000);
    for (let i = 0; i < 5; i++) await h.get('/api/v1/tokens/balance');
    const reset = await h.post('/_sim/reset', {}, control);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ accounts: 2, builds: 0, clock: { nowMs: start.clock.now, frozen: true } });
    expect(await state(h)).toEqual(start);
    expect((await h.get('/api/v1/tokens/balance')).headers['x-ratelimit-remaining']).toBe('59'); // windows afresh
    expect(await h.target(undefined, 'first')).toBe(firstTarget);
  });
});

describe('POST /_sim/accounts/{accountId}/reset', () => {
  it('empties one account, keeps its keys, and leaves the others alone', async () => {
    const h = harness({ speed: 'instant' });
    const [a, b] = [await account(h, 40), await account(h, 30)];
    for (const who of [a, b]) {
      const targetId = await h.target(who.key, `brand-${who.id.slice(0, 8)}`);
      await h.build({ targetId, objective: 'Reset me' }, who.key, 'same-key');
    }
    h.advance(3_600_000);
    const build = (await h.get('/api/v1/builds', { key: a.key })).body.data[0];
    const deliverableId = (await h.get(`/api/v1/builds/${build.id}`, { key: a.key })).body.deliverables[0].id;
    const share = (await h.post(`/api/v1/deliverables/${deliverableId}/shares`, {}, { key: a.key })).body;
    const bBefore = { builds: (await h.get('/api/v1/builds', { key: b.key })).body, balance: (await h.get('/api/v1/tokens/balance', { key: b.key })).body };

    const reset = await h.post(`/_sim/accounts/${a.id}/reset`, {}, control);
    expect(reset.status).toBe(200);
    // Made without a name: named by its place among the simulator's accounts (after the demo and the empty account).
    expect(reset.body).toEqual({ accountId: a.id, name: 'Test account 3', balance: 40 });

    // A: empty again, same key, the opening purchase only; its share link is dead.
    expect((await h.get('/api/v1/builds', { key: a.key })).body.data).toEqual([]);
    expect((await h.get('/api/v1/targets', { key: a.key })).body.data).toEqual([]);
    expect((await h.get(`/api/v1/builds/${build.id}`, { key: a.key })).status).toBe(404);
    const ledger = (await h.get('/api/v1/tokens/transactions', { key: a.key })).body.data;
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ type: 'purchase', amount: 40, balanceAfter: 40 });
    expect((await h.get(share.url, { key: null })).status).toBe(404);
    // An Idempotency-Key of before the reset makes a new build now.
    const targetId = await h.target(a.key, 'again');
    const again = await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'Reset me' }, { key: a.key, headers: { 'Idempotency-Key': 'same-key' } });
    expect(again.status).toBe(202);
    expect(again.body.buildId).not.toBe(build.id);

    // B: untouched.
    expect((await h.get('/api/v1/builds', { key: b.key })).body).toEqual(bBefore.builds);
    expect((await h.get('/api/v1/tokens/balance', { key: b.key })).body).toEqual(bBefore.balance);
  });

  it('is a 404 for an account nobody made', async () => {
    const h = harness();
    const res = await h.post('/_sim/accounts/00000000-0000-4000-8000-000000000000/reset', {}, control);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});
