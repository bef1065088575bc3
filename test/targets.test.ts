import { describe, expect, it } from 'vitest';
import { listLibraryItems } from '../src/library/library-service.js';
import { harness, type Harness } from './support/harness.js';

const KIT = {
  voice: 'expert',
  tone: 'warm',
  seo: { primaryKeywords: ['cold brew'], secondaryKeywords: ['grinder'], metaDescriptionMaxLength: 150 },
  pressRelease: {
    boilerplate: 'Acme roasts coffee.',
    mediaContact: { name: 'Ada', email: 'ada@acme.example' },
    datelineCity: 'Portland',
    defaultQuoteMode: 'polish',
  },
};

async function createTarget(h: Harness, slug: string, name = 'Acme Coffee') {
  const res = await h.post('/api/v1/targets', { name, slug, description: 'Roaster', brandKit: KIT });
  expect(res.status).toBe(201);
  return res.body;
}

const patch = (h: Harness, id: string, body: unknown, key?: string) => h.call('PATCH', `/api/v1/targets/${id}`, { body, key });
const del = (h: Harness, url: string, key?: string) => h.call('DELETE', url, { key });

describe('PATCH /api/v1/targets/{targetId}', () => {
  it('changes only the fields given and moves updatedAt', async () => {
    const h = harness();
    const created = await createTarget(h, 'acme');
    h.advance(5_000);
    const res = await patch(h, created.id, { name: 'Acme Roasters' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, name: 'Acme Roasters', updatedAt: new Date(Date.parse(created.createdAt) + 5_000).toISOString() });
    expect((await h.get(`/api/v1/targets/${created.id}`)).body).toEqual(res.body);
  });

  it('merges the brand kit part by part; mediaContact null removes the contact', async () => {
    const h = harness();
    const { id } = await createTarget(h, 'acme');
    const res = await patch(h, id, { brandKit: { tone: 'bold', seo: { primaryKeywords: ['espresso'] }, pressRelease: { mediaContact: null } } });
    expect(res.status).toBe(200);
    expect(res.body.brandKit).toEqual({
      voice: 'expert',
      tone: 'bold',
      seo: { primaryKeywords: ['espresso'], secondaryKeywords: ['grinder'], metaDescriptionMaxLength: 150 },
      pressRelease: { ...KIT.pressRelease, mediaContact: null },
    });
  });

  it('moves the slug: the old one is free again, a taken one is 409 CONFLICT and changes nothing', async () => {
    const h = harness();
    const a = await createTarget(h, 'alpha');
    const b = await createTarget(h, 'beta');
    const conflict = await patch(h, a.id, { slug: 'beta', name: 'Renamed' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'CONFLICT', details: { field: 'slug', targetId: b.id } });
    expect((await h.get(`/api/v1/targets/${a.id}`)).body).toEqual(a);

    expect((await patch(h, a.id, { slug: 'alpha' })).status).toBe(200); // its own slug is no conflict
    expect((await patch(h, a.id, { slug: 'gamma' })).body.slug).toBe('gamma');
    expect((await h.post('/api/v1/targets', { name: 'New', slug: 'alpha' })).status).toBe(201);
    expect((await h.post('/api/v1/targets', { name: 'Dup', slug: 'gamma' })).status).toBe(409);
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown field', { colour: 'red' }, 'body.colour'],
    ['a name of the wrong type', { name: 42 }, 'body.name'],
    ['a huge name', { name: 'x'.repeat(10_000) }, 'body.name'],
    ['a slug not in URL form', { slug: 'Not A Slug' }, 'body.slug'],
    ['an unknown brand-kit field', { brandKit: { logo: 'x' } }, 'body.brandKit.logo'],
    ['a bad quote mode', { brandKit: { pressRelease: { defaultQuoteMode: 'shout' } } }, 'body.brandKit.pressRelease.defaultQuoteMode'],
  ])('400 VALIDATION_ERROR for %s, and nothing changes', async (_, body, path) => {
    const h = harness();
    const created = await createTarget(h, 'acme');
    const res = await patch(h, created.id, body);
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect((await h.get(`/api/v1/targets/${created.id}`)).body).toEqual(created);
  });

  it('400 for an id that is not a UUID, 404 for an unknown one, 403 without svc:write', async () => {
    const h = harness();
    const { id } = await createTarget(h, 'acme');
    expect((await patch(h, 'not-a-uuid', { name: 'x' })).status).toBe(400);
    expect((await patch(h, '00000000-0000-4000-8000-000000000000', { name: 'x' })).status).toBe(404);
    const readOnly = await patch(h, id, { name: 'x' }, h.keys.readOnly);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.details.requiredScope).toBe('svc:write');
    expect((await patch(h, id, { name: 'By writer' }, h.keys.writeOnly)).status).toBe(200);
  });

  it("404 for another account's target", async () => {
    const h = harness();
    const { id } = await createTarget(h, 'acme');
    const other = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    expect((await patch(h, id, { name: 'Stolen' }, other)).status).toBe(404);
    expect((await del(h, `/api/v1/targets/${id}`, other)).status).toBe(404);
    expect((await h.get(`/api/v1/targets/${id}`)).body.name).toBe('Acme Coffee');
  });
});

describe('DELETE /api/v1/targets/{targetId}', () => {
  it('204, then the target is gone from get and list, and its slug is free', async () => {
    const h = harness();
    const keep = await createTarget(h, 'keep');
    const gone = await createTarget(h, 'gone');
    const res = await del(h, `/api/v1/targets/${gone.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await h.get(`/api/v1/targets/${gone.id}`)).status).toBe(404);
    expect((await h.get('/api/v1/targets')).body.data.map((t: { id: string }) => t.id)).toEqual([keep.id]);
    expect((await del(h, `/api/v1/targets/${gone.id}`)).status).toBe(404);
    expect((await h.post('/api/v1/targets', { name: 'Again', slug: 'gone' })).status).toBe(201);
  });

  it('takes its library items with it, and leaves other targets\u2019 items alone', async () => {
    const h = harness();
    const gone = await createTarget(h, 'gone');
    const keep = await createTarget(h, 'keep');
    const item = { type: 'glossary_term', name: 'Crema', content: 'the foam on an espresso' };
    const goneItem = (await h.post(`/api/v1/targets/${gone.id}/library`, item)).body;
    const keptItem = (await h.post(`/api/v1/targets/${keep.id}/library`, item)).body;
    expect((await del(h, `/api/v1/targets/${gone.id}`)).status).toBe(204);

    const account = h.simulator.internal.store.findKey(h.keys.readWrite)!.accountId;
    const records = h.simulator.internal.store.account(account)!;
    expect(records.library.get(goneItem.id)).toBeUndefined();
    expect(listLibraryItems(records, gone.id)).toEqual([]);
    expect(listLibraryItems(records, keep.id).map((i) => i.id)).toEqual([keptItem.id]);
    expect((await h.get(`/api/v1/targets/${gone.id}/library/${goneItem.id}`)).status).toBe(404);
  });

  it('keeps its builds readable, each with the target as it was when built', async () => {
    const h = harness({ speed: 'realistic' });
    const target = await createTarget(h, 'acme', 'Original Brand');
    const buildId = await h.build({ targetId: target.id, kind: 'press_release', objective: 'Announce our new roastery' });
    // Renamed, then deleted, while the build runs: the content still uses the original.
    expect((await patch(h, target.id, { name: 'Renamed Brand', brandKit: { pressRelease: { boilerplate: 'Changed.' } } })).status).toBe(200);
    expect((await del(h, `/api/v1/targets/${target.id}`)).status).toBe(204);
    h.advance(60 * 60_000);

    const got = await h.get(`/api/v1/builds/${buildId}`);
    expect(got.status).toBe(200);
    expect(got.body.build).toMatchObject({ status: 'completed', targetId: target.id });
    const deliverable = (await h.get(`/api/v1/deliverables/${got.body.deliverables[0].id}`)).body;
    expect(deliverable.targetId).toBe(target.id);
    expect(deliverable.title).toContain('Original Brand');
    expect(deliverable.markdown).toContain('Acme roasts coffee.');
    expect(deliverable.markdown).not.toContain('Renamed Brand');
    const download = await h.get(`/api/v1/deliverables/${deliverable.id}/download?format=md`);
    expect(download.status).toBe(200);
    expect((await h.get(`/api/v1/builds?targetId=${target.id}`)).body.data.map((b: { id: string }) => b.id)).toEqual([buildId]);
  });

  it('refuses new builds for it (404) and needs svc:write (403)', async () => {
    const h = harness();
    const { id } = await createTarget(h, 'acme');
    expect((await del(h, `/api/v1/targets/${id}`, h.keys.readOnly)).status).toBe(403);
    expect((await h.get(`/api/v1/targets/${id}`)).status).toBe(200);
    expect((await del(h, `/api/v1/targets/${id}`, h.keys.writeOnly)).status).toBe(204);
    const res = await h.post('/api/v1/builds', { targetId: id, kind: 'blog', objective: 'x' });
    expect(res.status).toBe(404);
    expect((await del(h, '/api/v1/targets/nope')).status).toBe(400);
  });
});
