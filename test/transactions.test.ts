import { describe, expect, it } from 'vitest';
import { harness, type Harness } from './support/harness.js';

interface Tx {
  id: string;
  type: 'purchase' | 'grant' | 'build_charge' | 'build_refund' | `${string}_charge`;
  amount: number;
  balanceAfter: number;
  buildId: string | null;
  bundleId: string | null;
  createdAt: string;
}

function purchase(h: Harness, bundleId: unknown, options: { key?: string; idempotencyKey?: string } = {}) {
  return h.post('/api/v1/tokens/purchases', { bundleId }, {
    key: options.key,
    headers: options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {},
  });
}

/** Every transaction, following nextCursor page by page. */
async function allPages(h: Harness, query: string, limit: number): Promise<{ pages: Tx[][]; last: unknown }> {
  const pages: Tx[][] = [];
  let cursor: string | null = null;
  do {
    const res = await h.get(`/api/v1/tokens/transactions?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    pages.push(res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor !== null && pages.length < 50);
  return { pages, last: cursor };
}

/** Seeded purchase, 3 bundle purchases, 5 build charges, 1 refund of a failed build: 10 entries. */
async function busyLedger() {
  const h = harness({ speed: 'realistic' });
  expect((await purchase(h, 'starter')).status).toBe(201);
  expect((await purchase(h, 'growth')).status).toBe(201);
  const targetId = await h.target();
  const builds = [];
  for (let i = 0; i < 4; i++) {
    h.advance(1_000);
    builds.push(await h.build({ targetId, objective: `Guide number ${i}`, qualityMode: i % 2 ? 'premium' : 'standard' }));
  }
  const failed = await h.build({ targetId, objective: 'Cold brew [fail:drafting]', researchMode: 'deep' });
  h.advance(20 * 60_000);
  expect((await h.get(`/api/v1/builds/${failed}`)).body.build.status).toBe('failed');
  expect((await purchase(h, 'scale')).status).toBe(201);
  return { h, builds, failed };
}

describe('token bundles and purchases (spec, What the service does: tokens)', () => {
  it('lists the bundles with their tokens and prices in cents', async () => {
    const h = harness();
    const res = await h.get('/api/v1/tokens/bundles', { key: h.keys.readOnly });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: 'starter', name: 'Starter', tokens: 50, priceCents: 4900, currency: 'usd' },
      { id: 'growth', name: 'Growth', tokens: 250, priceCents: 19900, currency: 'usd' },
      { id: 'scale', name: 'Scale', tokens: 1000, priceCents: 59900, currency: 'usd' },
    ]);
  });

  it('201 with the purchase transaction; balance and lifetimePurchased grow by the bundle', async () => {
    const h = harness();
    const res = await purchase(h, 'growth');
    expect(res.status).toBe(201);
    expect(res.body.transaction).toMatchObject({ type: 'purchase', amount: 250, balanceAfter: 350, bundleId: 'growth', buildId: null });
    expect(res.body.transaction.description).toContain('Growth');
    expect(res.body.bundle.id).toBe('growth');
    expect(res.body.balance).toEqual({ balance: 350, lifetimePurchased: 350, lifetimeUsed: 0 });
    expect(res.body).not.toHaveProperty('idempotent');
    expect(res.headers.location).toBe(`/api/v1/tokens/transactions/${res.body.transaction.id}`);
    expect((await h.get('/api/v1/tokens/balance')).body).toEqual({ balance: 350, lifetimePurchased: 350, lifetimeUsed: 0 });
    const fetched = await h.get(res.headers.location as string);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body.transaction);
  });

  it('tokens bought make a build affordable that was refused with 402', async () => {
    const h = harness();
    const key = h.keys.emptyAccount;
    const targetId = await h.target(key);
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x' }, { key })).status).toBe(402);
    expect((await purchase(h, 'starter', { key })).body.balance.balance).toBe(50);
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x' }, { key })).status).toBe(202);
    expect((await h.get('/api/v1/tokens/balance', { key })).body).toEqual({ balance: 49, lifetimePurchased: 50, lifetimeUsed: 1 });
  });

  it('replays a purchase for a reused Idempotency-Key: 200, idempotent, the same transaction, nothing bought', async () => {
    const h = harness();
    const first = await purchase(h, 'starter', { idempotencyKey: 'order-2026-03-02-001' });
    expect(first.status).toBe(201);
    h.advance(60 * 60_000);
    const replay = await purchase(h, 'starter', { idempotencyKey: 'order-2026-03-02-001' });
    expect(replay.status).toBe(200);
    expect(replay.body.idempotent).toBe(true);
    expect(replay.body.transaction).toEqual(first.body.transaction);
    expect(replay.headers.location).toBe(first.headers.location);
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(150);
    expect((await h.get('/api/v1/tokens/transactions?type=purchase')).body.data).toHaveLength(2); // seeded + this one
  });

  it('409 CONFLICT for an Idempotency-Key reused for another bundle; nothing bought', async () => {
    const h = harness();
    const first = await purchase(h, 'starter', { idempotencyKey: 'order-1' });
    const other = await purchase(h, 'scale', { idempotencyKey: 'order-1' });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'CONFLICT', details: { idempotencyKey: 'order-1', bundleId: 'starter', transactionId: first.body.transaction.id } });
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(150);
  });

  it('forgets a purchase Idempotency-Key after 24 hours; keys of builds are a separate namespace', async () => {
    const h = harness();
    const targetId = await h.target();
    await h.build({ targetId }, undefined, 'shared-key');
    const bought = await purchase(h, 'starter', { idempotencyKey: 'shared-key' });
    expect(bought.status).toBe(201); // the build's key did not replay a build here
    h.advance(24 * 60 * 60_000);
    const again = await purchase(h, 'starter', { idempotencyKey: 'shared-key' });
    expect(again.status).toBe(201);
    expect(again.body.transaction.id).not.toBe(bought.body.transaction.id);
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(100 - 1 + 50 + 50);
  });

  it('keeps accounts apart: the same Idempotency-Key in another account buys its own bundle', async () => {
    const h = harness();
    await purchase(h, 'starter', { idempotencyKey: 'k-1' });
    const res = await purchase(h, 'starter', { key: h.keys.emptyAccount, idempotencyKey: 'k-1' });
    expect(res.status).toBe(201);
    expect(res.body.balance.balance).toBe(50);
  });

  it('404 NOT_FOUND for an unknown bundle; nothing bought', async () => {
    const h = harness();
    const res = await purchase(h, 'enterprise');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'token bundle', id: 'enterprise' } });
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(100);
  });

  it.each([
    ['no bundleId', {}, 'body.bundleId'],
    ['a number', { bundleId: 50 }, 'body.bundleId'],
    ['an empty string', { bundleId: '' }, 'body.bundleId'],
    ['a huge string', { bundleId: 's'.repeat(100_000) }, 'body.bundleId'],
    ['an unknown field', { bundleId: 'starter', tokens: 1_000_000 }, 'body.tokens'],
  ])('400 VALIDATION_ERROR for %s; nothing bought', async (_, body, path) => {
    const h = harness();
    const res = await h.post('/api/v1/tokens/purchases', body);
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(100);
  });

  it('400 for an Idempotency-Key that is too long or not visible ASCII', async () => {
    const h = harness();
    for (const idempotencyKey of ['k'.repeat(256), 'has space']) {
      const res = await purchase(h, 'starter', { idempotencyKey });
      expect(res.status).toBe(400);
      expect(res.body.details.fields[0].path).toBe('header.idempotency-key');
    }
  });

  it('403 SCOPE_REQUIRED for a read-only key; the write-only key may buy', async () => {
    const h = harness();
    const refused = await purchase(h, 'starter', { key: h.keys.readOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.details.requiredScope).toBe('svc:write');
    expect((await purchase(h, 'starter', { key: h.keys.writeOnly })).status).toBe(201);
  });
});

describe('the ledger in full: purchases, charges, refunds, pages (spec, Tokens)', () => {
  it('pages with limit=2 through every transaction exactly once, newest first, ending with a null cursor', async () => {
    const { h } = await busyLedger();
    const everything = (await h.get('/api/v1/tokens/transactions?limit=100')).body.data as Tx[];
    expect(everything).toHaveLength(10);
    const { pages, last } = await allPages(h, '', 2);
    expect(last).toBeNull();
    expect(pages).toHaveLength(5);
    expect(pages.every((p) => p.length === 2)).toBe(true);
    const seen = pages.flat();
    expect(seen.map((t) => t.id)).toEqual(everything.map((t) => t.id));
    expect(new Set(seen.map((t) => t.id)).size).toBe(10);
    const times = seen.map((t) => Date.parse(t.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(seen[0]).toMatchObject({ type: 'purchase', bundleId: 'scale' });
    expect(seen.at(-1)).toMatchObject({ type: 'purchase', bundleId: null, amount: 100 });
  });

  it.each([
    ['purchase', 4],
    ['build_charge', 5],
    ['build_refund', 1],
    ['grant', 0],
  ] as const)('filters by type %s, across pages of one', async (type, count) => {
    const { h, failed } = await busyLedger();
    const { pages, last } = await allPages(h, `&type=${type}`, 1);
    const seen = pages.flat();
    expect(last).toBeNull();
    expect(seen).toHaveLength(count);
    expect(seen.every((t) => t.type === type)).toBe(true);
    if (type === 'build_refund') expect(seen[0]).toMatchObject({ buildId: failed, amount: 2 });
    if (type === 'build_charge') expect(seen.every((t) => t.amount < 0 && t.buildId !== null)).toBe(true);
  });

  it('balance = sum of the ledger; lifetimeUsed = charges − refunds; each balanceAfter follows from the one before', async () => {
    const { h } = await busyLedger();
    const ledger = ((await h.get('/api/v1/tokens/transactions?limit=100')).body.data as Tx[]).reverse();
    const balance = (await h.get('/api/v1/tokens/balance')).body;
    const sum = (type: Tx['type']) => ledger.filter((t) => t.type === type).reduce((s, t) => s + t.amount, 0);
    expect(balance.balance).toBe(ledger.reduce((s, t) => s + t.amount, 0));
    // Every kind of charge (builds; images too, when the ledger has them) net of refunds.
    const charges = ledger.filter((t) => t.type.endsWith('_charge')).reduce((s, t) => s - t.amount, 0);
    expect(charges).toBe(-sum('build_charge'));
    expect(balance.lifetimeUsed).toBe(charges - sum('build_refund'));
    expect(balance.lifetimePurchased).toBe(sum('purchase'));
    expect(balance).toEqual({ balance: 1400 - 6 + 0, lifetimePurchased: 1400, lifetimeUsed: 6 });
    let running = 0;
    for (const t of ledger) {
      running += t.amount;
      expect(t.balanceAfter).toBe(running);
    }
  });

  it('gets a build charge by id; 404 for an unknown or another account\'s transaction, 400 for a non-UUID', async () => {
    const { h, builds, failed } = await busyLedger();
    const [charge] = (await h.get('/api/v1/tokens/transactions?type=build_charge&limit=1')).body.data as Tx[];
    expect((await h.get(`/api/v1/tokens/transactions/${charge!.id}`)).body).toEqual(charge);
    expect(charge!.buildId).toBe(failed); // the newest charge
    expect(builds).not.toContain(failed);
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite as string;
    const theirs = await h.get(`/api/v1/tokens/transactions/${charge!.id}`, { key: stranger });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('NOT_FOUND');
    expect((await h.get('/api/v1/tokens/transactions/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const bad = await h.get('/api/v1/tokens/transactions/12345');
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields[0].path).toBe('path.transactionId');
  });

  it.each([
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['limit=ten', 'query.limit'],
    ['type=refund', 'query.type'],
    ['cursor=c1.zz%24', 'query.cursor'],
    [`cursor=${'c'.repeat(300)}`, 'query.cursor'],
  ])('400 VALIDATION_ERROR for ?%s', async (query, path) => {
    const h = harness();
    const res = await h.get(`/api/v1/tokens/transactions?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.details.fields[0].path).toBe(path);
  });
});
