import { describe, expect, it } from 'vitest';
import { harness, T0, type Harness } from './support/harness.js';

/** A completed deliverable of the default account, and the harness it lives in. */
async function deliverable(h: Harness, key = h.keys.readWrite) {
  const targetId = await h.target(key);
  const buildId = await h.build({ targetId, objective: 'A guide to cold brew at home' }, key);
  const { deliverables } = (await h.get(`/api/v1/builds/${buildId}`, { key })).body;
  const full = (await h.get(`/api/v1/deliverables/${deliverables[0].id}`, { key })).body;
  return { targetId, buildId, deliverable: full };
}

const shares = (deliverableId: string) => `/api/v1/deliverables/${deliverableId}/shares`;

describe('sharing a deliverable by link', () => {
  it('201 with id, token, url, createdAt and no expiry; the store indexes the token', async () => {
    const h = harness({ speed: 'instant' });
    const { deliverable: d } = await deliverable(h);
    const res = await h.post(shares(d.id));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      deliverableId: d.id,
      token: expect.stringMatching(/^[0-9a-f]{48}$/),
      url: `/api/v1/shared/${res.body.token}`,
      createdAt: new Date(T0).toISOString(),
      expiresAt: null,
      revokedAt: null,
    });
    const accountId = h.simulator.internal.store.findKey(h.keys.readWrite)!.accountId;
    expect(h.simulator.internal.store.shareTokens.get(res.body.token)).toEqual({ accountId, shareId: res.body.id });
    const second = await h.post(shares(d.id), {});
    expect(second.body.token).not.toBe(res.body.token);
  });

  it('the public view works without a key (and with one): only title, kind, content and evidence', async () => {
    const h = harness({ speed: 'instant' });
    const { targetId, buildId, deliverable: d } = await deliverable(h);
    const { url } = (await h.post(shares(d.id))).body;

    const open = await h.get(url, { key: null });
    expect(open.status).toBe(200);
    expect(Object.keys(open.body).sort()).toEqual(['claims', 'html', 'kind', 'markdown', 'sources', 'title', 'verification']);
    expect(open.body).toEqual({
      title: d.title,
      kind: d.kind,
      markdown: d.markdown,
      html: d.html,
      sources: d.sources,
      claims: d.claims,
      verification: d.verification,
    });
    const accountId = h.simulator.internal.store.findKey(h.keys.readWrite)!.accountId;
    for (const secret of [d.id, buildId, targetId, accountId]) expect(open.text).not.toContain(secret);

    expect((await h.get(url)).body).toEqual(open.body);
    expect((await h.get(url, { key: h.keys.revoked })).status).toBe(200);
  });

  it('is counted by no key bucket (a loopback client is not limited at all)', async () => {
    const h = harness({ speed: 'instant' });
    const { deliverable: d } = await deliverable(h);
    const { url } = (await h.post(shares(d.id))).body;
    for (let i = 0; i < 130; i++) expect((await h.get(url, { key: null })).status).toBe(200);
    expect((await h.get('/api/v1/tokens/balance')).status).toBe(200);
  });

  it('revoked: 204, then the view is 404; revoking again keeps the first revocation time', async () => {
    const h = harness({ speed: 'instant' });
    const { deliverable: d } = await deliverable(h);
    const share = (await h.post(shares(d.id))).body;
    const other = (await h.post(shares(d.id))).body;
    h.advance(1_000);
    const res = await h.call('DELETE', `/api/v1/shares/${share.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    const dead = await h.get(share.url, { key: null });
    expect(dead.status).toBe(404);
    expect(dead.body.code).toBe('NOT_FOUND');
    expect((await h.get(other.url, { key: null })).status).toBe(200);

    h.advance(1_000);
    expect((await h.call('DELETE', `/api/v1/shares/${share.id}`)).status).toBe(204);
    const listed = (await h.get(shares(d.id))).body.data;
    expect(listed.map((s: { id: string }) => s.id)).toEqual([other.id, share.id]);
    expect(listed[1].revokedAt).toBe(new Date(T0 + 1_000).toISOString());
    expect(listed[0].revokedAt).toBeNull();
  });

  it('expires on the virtual clock: 200 until expiresAt, 404 from then on', async () => {
    const h = harness({ speed: 'instant' });
    const { deliverable: d } = await deliverable(h);
    const share = (await h.post(shares(d.id), { expiresInSeconds: 3600 })).body;
    expect(share.expiresAt).toBe(new Date(T0 + 3_600_000).toISOString());
    h.advance(3_599_999);
    expect((await h.get(share.url, { key: null })).status).toBe(200);
    h.advance(1);
    expect((await h.get(share.url, { key: null })).status).toBe(404);
    expect((await h.get(shares(d.id))).body.data[0].expiresAt).toBe(share.expiresAt);
  });

  it('keeps working after the target is deleted (builds stay readable)', async () => {
    const h = harness({ speed: 'instant' });
    const { targetId, deliverable: d } = await deliverable(h);
    const share = (await h.post(shares(d.id))).body;
    expect((await h.call('DELETE', `/api/v1/targets/${targetId}`)).status).toBe(204);
    expect((await h.get(share.url, { key: null })).body.title).toBe(d.title);
  });

  it("404 for another account's deliverable or share, an unfinished deliverable, an unknown token", async () => {
    const h = harness({ speed: 'realistic' });
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    const targetId = await h.target();
    const buildId = await h.build({ targetId });
    h.advance(60 * 60_000);
    const { deliverables } = (await h.get(`/api/v1/builds/${buildId}`)).body;
    const share = (await h.post(shares(deliverables[0].id))).body;

    expect((await h.post(shares(deliverables[0].id), {}, { key: stranger })).status).toBe(404);
    expect((await h.get(shares(deliverables[0].id), { key: stranger })).status).toBe(404);
    expect((await h.call('DELETE', `/api/v1/shares/${share.id}`, { key: stranger })).status).toBe(404);
    expect((await h.get(share.url, { key: null })).status).toBe(200);

    const running = await h.build({ targetId, objective: 'Still running' });
    const runningDeliverable = h.simulator.internal.store.account(h.simulator.internal.store.findKey(h.keys.readWrite)!.accountId)!.builds.get(running)!.deliverableIds[0]!;
    expect((await h.post(shares(runningDeliverable))).status).toBe(404);

    expect((await h.get(`/api/v1/shared/${'0'.repeat(48)}`, { key: null })).status).toBe(404);
    expect((await h.get('/api/v1/shared/not-a-token', { key: null })).status).toBe(404);
    expect((await h.call('DELETE', '/api/v1/shares/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it.each([
    ['zero seconds', { expiresInSeconds: 0 }, 'body.expiresInSeconds'],
    ['negative seconds', { expiresInSeconds: -5 }, 'body.expiresInSeconds'],
    ['seconds as a string', { expiresInSeconds: '3600' }, 'body.expiresInSeconds'],
    ['fractional seconds', { expiresInSeconds: 90.5 }, 'body.expiresInSeconds'],
    ['more than a year', { expiresInSeconds: 1e12 }, 'body.expiresInSeconds'],
    ['an unknown field', { public: true }, 'body.public'],
    ['an array body', [1], 'body'],
  ])('400 VALIDATION_ERROR for %s, and nothing is created', async (_, body, path) => {
    const h = harness({ speed: 'instant' });
    const { deliverable: d } = await deliverable(h);
    const res = await h.post(shares(d.id), body);
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect((await h.get(shares(d.id))).body.data).toEqual([]);
  });

  it('400 for ids and tokens of the wrong shape', async () => {
    const h = harness();
    expect((await h.post(shares('not-a-uuid'))).status).toBe(400);
    expect((await h.get(shares('not-a-uuid'))).status).toBe(400);
    expect((await h.call('DELETE', '/api/v1/shares/not-a-uuid')).status).toBe(400);
    const long = await h.get(`/api/v1/shared/${'a'.repeat(300)}`, { key: null });
    expect(long.status).toBe(400);
    expect(long.body.details.fields[0].path).toBe('path.token');
  });

  it('creating and revoking need svc:write, listing needs svc:read', async () => {
    const h = harness({ speed: 'instant' });
    const { deliverable: d } = await deliverable(h);
    const share = (await h.post(shares(d.id), undefined, { key: h.keys.writeOnly })).body;
    expect(share.deliverableId).toBe(d.id);
    expect((await h.post(shares(d.id), undefined, { key: h.keys.readOnly })).status).toBe(403);
    expect((await h.call('DELETE', `/api/v1/shares/${share.id}`, { key: h.keys.readOnly })).status).toBe(403);
    expect((await h.get(shares(d.id), { key: h.keys.writeOnly })).status).toBe(403);
    expect((await h.get(shares(d.id), { key: h.keys.readOnly })).body.data).toHaveLength(1);
    expect((await h.post(shares(d.id), undefined, { key: null })).status).toBe(401);
  });

  it('lists newest first with limit and cursor', async () => {
    const h = harness({ speed: 'instant' });
    const { deliverable: d } = await deliverable(h);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await h.post(shares(d.id))).body.id);
    const first = (await h.get(`${shares(d.id)}?limit=2`)).body;
    expect(first.data.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    const second = (await h.get(`${shares(d.id)}?limit=2&cursor=${first.nextCursor}`)).body;
    expect(second).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
  });
});
