import { describe, expect, it } from 'vitest';
import { harness } from './support/harness.js';

describe('the typical flow (spec: check balance, create target, create build, poll, download)', () => {
  it('goes from balance to a downloaded deliverable', async () => {
    const h = harness();
    const balance = await h.get('/api/v1/tokens/balance');
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({ balance: 100, lifetimePurchased: 100, lifetimeUsed: 0 });

    const target = await h.post('/api/v1/targets', {
      name: 'Acme Coffee',
      slug: 'acme-coffee',
      description: 'Specialty coffee roaster',
      brandKit: { voice: 'expert', tone: 'warm' },
    });
    expect(target.status).toBe(201);
    expect(target.headers.location).toBe(`/api/v1/targets/${target.body.id}`);
    expect(target.body).toMatchObject({ name: 'Acme Coffee', slug: 'acme-coffee', brandKit: { voice: 'expert', tone: 'warm' } });

    const created = await h.post(
      '/api/v1/builds',
      { targetId: target.body.id, buildType: 'single', kind: 'blog', objective: 'Write a guide to cold brew', researchPolicy: 'required' },
      { headers: { 'Idempotency-Key': '2026-03-02-001' } },
    );
    expect(created.status).toBe(202);
    expect(created.body.correlationId).toMatch(/^corr_[A-Za-z0-9]+$/);
    expect(created.body).not.toHaveProperty('idempotent');

    const pending = await h.get(`/api/v1/builds/${created.body.buildId}`);
    expect(pending.body.build).toMatchObject({ status: 'pending', cost: 1, kind: 'blog', targetId: target.body.id });
    expect(pending.body.deliverables).toEqual([]);

    const after = await h.get('/api/v1/tokens/balance');
    expect(after.body).toEqual({ balance: 99, lifetimePurchased: 100, lifetimeUsed: 1 });

    h.advance(10 * 60_000);
    const done = await h.get(`/api/v1/builds/${created.body.buildId}`);
    expect(done.body.build.status).toBe('completed');
    expect(done.body.build.progress).toBe(100);
    expect(done.body.deliverables).toHaveLength(1);
    const deliverableId = done.body.deliverables[0].id;

    const full = await h.get(`/api/v1/deliverables/${deliverableId}`);
    expect(full.status).toBe(200);
    expect(full.body.sources.length).toBeGreaterThan(0);
    expect(full.body.claims.length).toBeGreaterThan(0);
    const sourceIds = new Set(full.body.sources.map((s: { id: string }) => s.id));
    for (const claim of full.body.claims) for (const id of claim.sourceIds) expect(sourceIds.has(id)).toBe(true);

    const md = await h.get(`/api/v1/deliverables/${deliverableId}/download?format=md`);
    expect(md.status).toBe(200);
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.headers['content-disposition']).toBe(`attachment; filename="${full.body.slug}.md"`);
    expect(md.text).toBe(full.body.markdown);

    const html = await h.get(`/api/v1/deliverables/${deliverableId}/download?format=html`);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.text).toBe(full.body.html);
    expect(html.text.startsWith('<!DOCTYPE html>')).toBe(true);
  });

  it('lists targets, builds and transactions newest first with working cursors', async () => {
    const h = harness();
    const targetId = await h.target();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await h.build({ targetId, objective: `Topic ${i}` }));
    const page1 = await h.get('/api/v1/builds?limit=2');
    expect(page1.body.data.map((b: { id: string }) => b.id)).toEqual([ids[2], ids[1]]);
    const page2 = await h.get(`/api/v1/builds?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toMatchObject({ data: [{ id: ids[0] }], nextCursor: null });

    const byTarget = await h.get(`/api/v1/builds?targetId=${targetId}&status=pending`);
    expect(byTarget.body.data).toHaveLength(3);

    const targets = await h.get('/api/v1/targets');
    expect(targets.body.data.map((t: { id: string }) => t.id)).toEqual([targetId]);
    const fetched = await h.get(`/api/v1/targets/${targetId}`);
    expect(fetched.body.id).toBe(targetId);

    const transactions = await h.get('/api/v1/tokens/transactions');
    expect(transactions.body.data.map((t: { type: string }) => t.type)).toEqual(['build_charge', 'build_charge', 'build_charge', 'purchase']);
    expect(transactions.body.data[0]).toMatchObject({ amount: -1, balanceAfter: 97, buildId: ids[2] });
    const charges = await h.get('/api/v1/tokens/transactions?type=purchase');
    expect(charges.body.data).toHaveLength(1);
  });
});
