import { describe, expect, it } from 'vitest';
import { listLibraryItems } from '../src/library/library-service.js';
import { harness, T0, type Harness } from './support/harness.js';

const CTA = { type: 'cta', name: 'Tasting CTA', content: 'Book a free tasting', url: 'https://acme.example/tasting' };
const BLURB = { type: 'product_blurb', name: 'Cold Brew Kit', content: 'The Acme Cold Brew Kit makes a litre of smooth concentrate overnight.' };
const TERM = { type: 'glossary_term', name: 'Bloom', content: 'the burst of gas when hot water first meets fresh grounds' };
const ASSET = { type: 'brand_asset', name: 'Logo pack', content: 'logos in light and dark versions', url: 'https://acme.example/brand/logos.zip' };

const lib = (targetId: string) => `/api/v1/targets/${targetId}/library`;
const patch = (h: Harness, url: string, body: unknown, key?: string) => h.call('PATCH', url, { body, key });

function accountOf(h: Harness, key = h.keys.readWrite) {
  return h.simulator.internal.store.account(h.simulator.internal.store.findKey(key)!.accountId)!;
}

describe('library items: create, read, list', () => {
  it('201 with the item and its Location; GET answers the same', async () => {
    const h = harness();
    const targetId = await h.target();
    const res = await h.post(lib(targetId), CTA);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: res.body.id, targetId, ...CTA, createdAt: new Date(T0).toISOString(), updatedAt: new Date(T0).toISOString() });
    expect(res.headers.location).toBe(`${lib(targetId)}/${res.body.id}`);
    expect((await h.get(res.headers.location!)).body).toEqual(res.body);
  });

  it('every type; url is null when none is given', async () => {
    const h = harness();
    const targetId = await h.target();
    for (const item of [CTA, BLURB, TERM, ASSET]) {
      const res = await h.post(lib(targetId), item);
      expect(res.status).toBe(201);
      expect(res.body.url).toBe('url' in item ? item.url : null);
    }
  });

  it('lists newest first, filters by type, pages with limit and cursor, and shows no other target\u2019s items', async () => {
    const h = harness();
    const targetId = await h.target();
    const otherId = await h.target();
    await h.post(lib(otherId), TERM);
    const ids: string[] = [];
    for (const item of [CTA, BLURB, TERM, ASSET, { ...CTA, name: 'Second CTA' }]) ids.push((await h.post(lib(targetId), item)).body.id);

    const all = await h.get(lib(targetId));
    expect(all.body.data.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    expect(all.body.nextCursor).toBeNull();

    const ctas = await h.get(`${lib(targetId)}?type=cta`);
    expect(ctas.body.data.map((i: { name: string }) => i.name)).toEqual(['Second CTA', 'Tasting CTA']);

    const first = await h.get(`${lib(targetId)}?limit=2`);
    expect(first.body.data.map((i: { id: string }) => i.id)).toEqual([ids[4], ids[3]]);
    const second = await h.get(`${lib(targetId)}?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    const third = await h.get(`${lib(targetId)}?limit=2&cursor=${second.body.nextCursor}`);
    expect(third.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null });

    // The function the chat feature uses sees the same items, newest first.
    expect(listLibraryItems(accountOf(h), targetId).map((i) => i.id)).toEqual([...ids].reverse());
    expect(listLibraryItems(accountOf(h), otherId)).toHaveLength(1);
  });

  it('404 for an unknown target, for an item of another target, and in another account', async () => {
    const h = harness();
    const targetId = await h.target();
    const otherId = await h.target();
    const item = (await h.post(lib(targetId), TERM)).body;
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await h.get(lib(unknown))).status).toBe(404);
    expect((await h.post(lib(unknown), TERM)).status).toBe(404);
    expect((await h.get(`${lib(otherId)}/${item.id}`)).status).toBe(404);
    expect((await patch(h, `${lib(otherId)}/${item.id}`, { name: 'x' })).status).toBe(404);
    expect((await h.call('DELETE', `${lib(otherId)}/${item.id}`)).status).toBe(404);
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    expect((await h.get(`${lib(targetId)}/${item.id}`, { key: stranger })).status).toBe(404);
    expect((await h.get(`${lib(targetId)}/${item.id}`)).status).toBe(200);
  });
});

describe('library items: validation per type', () => {
  it.each([
    ['a CTA without url', { ...CTA, url: undefined }, 'body.url'],
    ['a brand asset without url', { ...ASSET, url: undefined }, 'body.url'],
    ['an http url', { ...CTA, url: 'http://acme.example' }, 'body.url'],
    ['a javascript: url', { ...CTA, url: 'javascript:alert(1)' }, 'body.url'],
    ['a url with spaces', { ...CTA, url: 'https://acme.example/a b' }, 'body.url'],
    ['a glossary term without a definition', { type: 'glossary_term', name: 'Bloom' }, 'body.content'],
    ['a blank definition', { ...TERM, content: '   ' }, 'body.content'],
    ['a blank name', { ...TERM, name: ' ' }, 'body.name'],
    ['an unknown type', { ...TERM, type: 'slogan' }, 'body.type'],
    ['an unknown field', { ...TERM, colour: 'red' }, 'body.colour'],
    ['a name of the wrong type', { ...TERM, name: ['Bloom'] }, 'body.name'],
    ['huge content', { ...BLURB, content: 'x'.repeat(50_000) }, 'body.content'],
  ])('400 VALIDATION_ERROR for %s, and nothing is created', async (_, body, path) => {
    const h = harness();
    const targetId = await h.target();
    const res = await h.post(lib(targetId), JSON.parse(JSON.stringify(body)));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect((await h.get(lib(targetId))).body.data).toEqual([]);
  });

  it('400 for ids that are not UUIDs and for a bad type filter', async () => {
    const h = harness();
    const targetId = await h.target();
    expect((await h.get(lib('nope'))).status).toBe(400);
    expect((await h.get(`${lib(targetId)}/nope`)).status).toBe(400);
    const filter = await h.get(`${lib(targetId)}?type=slogan`);
    expect(filter.status).toBe(400);
    expect(filter.body.details.fields[0].path).toBe('query.type');
  });
});

describe('library items: update and delete', () => {
  it('PATCH changes only the fields given and moves updatedAt', async () => {
    const h = harness();
    const targetId = await h.target();
    const item = (await h.post(lib(targetId), TERM)).body;
    h.advance(2_000);
    const res = await patch(h, `${lib(targetId)}/${item.id}`, { content: 'the first rise of bubbles' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...item, content: 'the first rise of bubbles', updatedAt: new Date(T0 + 2_000).toISOString() });
    const linked = await patch(h, `${lib(targetId)}/${item.id}`, { url: 'https://acme.example/glossary#bloom' });
    expect(linked.body.url).toBe('https://acme.example/glossary#bloom');
    expect((await patch(h, `${lib(targetId)}/${item.id}`, { url: null })).body.url).toBeNull();
  });

  it('400 and no change for removing a CTA\u2019s url, changing the type, or an empty body', async () => {
    const h = harness();
    const targetId = await h.target();
    const item = (await h.post(lib(targetId), CTA)).body;
    const url = `${lib(targetId)}/${item.id}`;
    for (const [body, path] of [
      [{ url: null, name: 'x' }, 'body.url'],
      [{ type: 'glossary_term' }, 'body.type'],
      [{}, 'body'],
      [{ url: 'ftp://acme.example' }, 'body.url'],
    ] as const) {
      const res = await patch(h, url, body);
      expect(res.status).toBe(400);
      expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    expect((await h.get(url)).body).toEqual(item);
  });

  it('DELETE answers 204 and the item is gone; a second DELETE is 404', async () => {
    const h = harness();
    const targetId = await h.target();
    const item = (await h.post(lib(targetId), BLURB)).body;
    const res = await h.call('DELETE', `${lib(targetId)}/${item.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await h.get(`${lib(targetId)}/${item.id}`)).status).toBe(404);
    expect((await h.get(lib(targetId))).body.data).toEqual([]);
    expect((await h.call('DELETE', `${lib(targetId)}/${item.id}`)).status).toBe(404);
  });

  it('writes need svc:write, reads svc:read', async () => {
    const h = harness();
    const targetId = await h.target();
    const item = (await h.post(lib(targetId), TERM)).body;
    const ro = h.keys.readOnly;
    expect((await h.post(lib(targetId), TERM, { key: ro })).status).toBe(403);
    expect((await patch(h, `${lib(targetId)}/${item.id}`, { name: 'x' }, ro)).status).toBe(403);
    expect((await h.call('DELETE', `${lib(targetId)}/${item.id}`, { key: ro })).status).toBe(403);
    expect((await h.get(lib(targetId), { key: h.keys.writeOnly })).status).toBe(403);
    expect((await h.get(`${lib(targetId)}/${item.id}`, { key: h.keys.writeOnly })).status).toBe(403);
    expect((await h.get(`${lib(targetId)}/${item.id}`, { key: ro })).body).toEqual(item);
  });
});

describe('library items in builds (libraryItemIds)', () => {
  it('a CTA and a product blurb named by a build appear in its content; the build echoes the ids', async () => {
    const h = harness({ speed: 'instant' });
    const targetId = await h.target();
    const cta = (await h.post(lib(targetId), CTA)).body;
    const blurb = (await h.post(lib(targetId), BLURB)).body;
    const term = (await h.post(lib(targetId), TERM)).body;
    for (const kind of ['blog', 'email', 'press_release']) {
      const buildId = await h.build({ targetId, kind, libraryItemIds: [cta.id, blurb.id, term.id] });
      const { build, deliverables } = (await h.get(`/api/v1/builds/${buildId}`)).body;
      expect(build.libraryItemIds).toEqual([cta.id, blurb.id, term.id]);
      const d = (await h.get(`/api/v1/deliverables/${deliverables[0].id}`)).body;
      expect(d.markdown).toContain(`[Book a free tasting](https://acme.example/tasting)`);
      expect(d.html).toContain('<a href="https://acme.example/tasting">Book a free tasting</a>');
      expect(d.markdown).toContain(BLURB.content);
      expect(d.markdown).toContain(`**Bloom**: ${TERM.content}`);
    }
  });

  it('uses the items as they were when the build was created', async () => {
    const h = harness({ speed: 'realistic' });
    const targetId = await h.target();
    const blurb = (await h.post(lib(targetId), BLURB)).body;
    const buildId = await h.build({ targetId, libraryItemIds: [blurb.id] });
    await patch(h, `${lib(targetId)}/${blurb.id}`, { content: 'A rewritten blurb.' });
    h.advance(60 * 60_000);
    const { deliverables } = (await h.get(`/api/v1/builds/${buildId}`)).body;
    const d = (await h.get(`/api/v1/deliverables/${deliverables[0].id}`)).body;
    expect(d.markdown).toContain(BLURB.content);
    expect(d.markdown).not.toContain('A rewritten blurb.');
  });

  it('400 naming body.libraryItemIds[i] for an unknown id or another target\u2019s item, and nothing is charged', async () => {
    const h = harness();
    const targetId = await h.target();
    const otherId = await h.target();
    const mine = (await h.post(lib(targetId), CTA)).body;
    const theirs = (await h.post(lib(otherId), CTA)).body;
    const before = (await h.get('/api/v1/tokens/balance')).body.balance;
    const res = await h.post('/api/v1/builds', {
      targetId,
      kind: 'blog',
      objective: 'Cold brew',
      libraryItemIds: [mine.id, '00000000-0000-4000-8000-000000000000', theirs.id],
    });
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toEqual(['body.libraryItemIds[1]', 'body.libraryItemIds[2]']);
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(before);
    expect((await h.get('/api/v1/builds')).body.data).toEqual([]);

    const repeated = await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x', libraryItemIds: [mine.id, mine.id] });
    expect(repeated.status).toBe(400);
    expect(repeated.body.details.fields[0].path).toBe('body.libraryItemIds');
  });
});
