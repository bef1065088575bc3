import { describe, expect, it } from 'vitest';
import { buildCost } from '../src/ledger/prices.js';
import { harness } from './support/harness.js';

async function accountWithBalance(h: ReturnType<typeof harness>, balance: number) {
  return (await h.post('/_sim/accounts', { balance }, { key: null })).body.keys.readWrite as string;
}

describe('tokens and the ledger (spec, Endpoints rule 4; Errors; Limits: cost)', () => {
  it('prices a standard blog with research at 1 token and adds the options per page', () => {
    const blog = { kind: 'blog', pages: 1, researchMode: 'standard', qualityMode: 'standard', generateImages: false } as const;
    expect(buildCost(blog)).toBe(1);
    expect(buildCost({ ...blog, researchMode: 'deep', qualityMode: 'premium', generateImages: true })).toBe(4);
    expect(buildCost({ ...blog, kind: 'press_release' })).toBe(2);
    expect(buildCost({ ...blog, pages: 5 })).toBe(5);
  });

  it('402 INSUFFICIENT_TOKENS with required, available and shortfall = required − available', async () => {
    const h = harness();
    const key = await accountWithBalance(h, 2);
    const targetId = await h.target(key);
    const res = await h.post('/api/v1/builds', { targetId, kind: 'doc', objective: 'API guide', researchMode: 'deep', qualityMode: 'premium' }, { key });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_TOKENS', details: { required: 4, available: 2, shortfall: 2 } });
    // Nothing was created or charged.
    expect((await h.get('/api/v1/builds', { key })).body.data).toEqual([]);
    expect((await h.get('/api/v1/tokens/balance', { key })).body.balance).toBe(2);
  });

  it('402 from the seeded empty account for the cheapest build', async () => {
    const h = harness();
    const key = h.keys.emptyAccount;
    const targetId = await h.target(key);
    const res = await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x' }, { key });
    expect(res.body.details).toEqual({ required: 1, available: 0, shortfall: 1 });
  });

  it('spends the balance exactly to zero, then refuses', async () => {
    const h = harness();
    const key = await accountWithBalance(h, 3);
    const targetId = await h.target(key);
    expect((await h.post('/api/v1/builds', { targetId, kind: 'press_release', objective: 'launch' }, { key })).status).toBe(202);
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x' }, { key })).status).toBe(202);
    expect((await h.get('/api/v1/tokens/balance', { key })).body).toEqual({ balance: 0, lifetimePurchased: 3, lifetimeUsed: 3 });
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x' }, { key })).status).toBe(402);
  });

  it('refunds a failed build by a ledger entry dated when it failed', async () => {
    const h = harness({ speed: 'realistic' });
    const targetId = await h.target();
    const buildId = await h.build({ targetId, objective: 'Cold brew [fail:drafting]', qualityMode: 'premium' });
    expect((await h.get('/api/v1/tokens/balance')).body).toMatchObject({ balance: 98, lifetimeUsed: 2 });
    h.advance(20 * 60_000);
    const build = (await h.get(`/api/v1/builds/${buildId}`)).body.build;
    expect(build.status).toBe('failed');
    expect(build.failure).toMatchObject({ stage: 'drafting', refundedTokens: 2 });
    expect((await h.get('/api/v1/tokens/balance')).body).toEqual({ balance: 100, lifetimePurchased: 100, lifetimeUsed: 0 });
    const [refund] = (await h.get('/api/v1/tokens/transactions')).body.data;
    expect(refund).toMatchObject({ type: 'build_refund', amount: 2, balanceAfter: 100, buildId });
    expect(Date.parse(refund.createdAt)).toBeLessThan(Date.parse(build.estimatedCompletionAt));
    expect(refund.createdAt).toBe(build.updatedAt);
  });

  it('makes a refunded failure affordable again before the next charge', async () => {
    const h = harness({ speed: 'realistic' });
    const key = await accountWithBalance(h, 1);
    const targetId = await h.target(key);
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x [fail:researching]' }, { key })).status).toBe(202);
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'y' }, { key })).status).toBe(402);
    h.advance(5 * 60_000);
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'y' }, { key })).status).toBe(202);
  });
});
