import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateContent } from '../src/content/generate.js';
import { sampleInput } from '../src/content/sample-input.js';
import { CONTENT_KINDS, type ContentKind } from '../src/content/types.js';
import { contract } from './support/contract.js';
import { harness, type Harness } from './support/harness.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

const BRAND_KIT = {
  voice: 'expert',
  tone: 'warm',
  seo: { primaryKeywords: ['specialty coffee'], secondaryKeywords: ['burr grinder'], metaDescriptionMaxLength: 120 },
  pressRelease: {
    boilerplate: 'Acme Coffee roasts single-origin beans in small batches for home baristas.',
    mediaContact: { name: 'Ada Lovelace', email: 'press@acme-coffee.example', phone: '+1 503 555 0100' },
    datelineCity: 'Portland',
    defaultQuoteMode: 'verbatim',
  },
};

async function brandTarget(h: Harness, slug = 'acme-coffee', brandKit: object = BRAND_KIT): Promise<string> {
  const res = await h.post('/api/v1/targets', { name: 'Acme Coffee', slug, description: 'Coffee gear for home baristas', brandKit });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Builds at the instant speed and returns the build and its first deliverable in full. */
async function deliver(h: Harness, fields: Record<string, unknown>) {
  const created = await h.post('/api/v1/builds', { objective: 'A guide to cold brew at home', ...fields });
  expect(created.status, created.text).toBe(202);
  h.advance(60_000); // a new rate-limit window: builds are limited to 10 a minute
  const got = await h.get(`/api/v1/builds/${created.body.buildId}`);
  expect(got.body.build.status).toBe('completed');
  const deliverable = await h.get(`/api/v1/deliverables/${got.body.deliverables[0].id}`);
  expect(deliverable.status).toBe(200);
  return { build: got.body.build, summaries: got.body.deliverables, deliverable: deliverable.body };
}

const DATELINE = /^[A-Z][A-Z .'-]*, (January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4} \u2014$/;

/** Kind-specific facts of a deliverable made with the BRAND_KIT target and no kind options. */
const KIND_FACTS: Record<ContentKind, (d: any) => void> = {
  blog(d) {
    expect(d.kindData.sections.length).toBeGreaterThanOrEqual(3);
    for (const section of d.kindData.sections) expect(d.markdown).toContain(`## ${section}`);
  },
  web_page(d) {
    expect(d.kindData.features.length).toBeGreaterThanOrEqual(3);
    expect(d.kindData.callToAction.url).toMatch(/^https:\/\//);
  },
  news(d) {
    expect(d.kindData.dateline).toMatch(DATELINE);
    expect(d.kindData.dateline.startsWith('PORTLAND, ')).toBe(true);
    expect(d.markdown).toContain(d.kindData.dateline);
  },
  how_to(d) {
    const steps = d.kindData.steps as Array<{ number: number; title: string }>;
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.map((s) => s.number)).toEqual(steps.map((_, i) => i + 1));
    for (const step of steps) expect(d.markdown).toContain(step.title);
  },
  doc(d) {
    expect(d.kindData.sections.length).toBeGreaterThanOrEqual(1);
  },
  resource(d) {
    expect(['checklist', 'guide', 'template']).toContain(d.kindData.format);
    expect(d.kindData.items.length).toBeGreaterThanOrEqual(1);
  },
  image(d) {
    expect(d.images.length).toBeGreaterThanOrEqual(1);
    expect(d.kindData.images.map((i: { id: string }) => i.id)).toEqual(d.images.map((i: { id: string }) => i.id));
    for (const image of d.images) expect(image.url).toMatch(/^data:image\/svg\+xml;base64,/);
  },
  social(d) {
    expect(d.kindData.posts.map((p: { platform: string }) => p.platform)).toEqual(['x', 'linkedin']);
    for (const post of d.kindData.posts) {
      expect([...post.text].length).toBe(post.characterCount);
      expect(post.characterCount).toBeLessThanOrEqual(post.limit);
    }
  },
  email(d) {
    expect(d.kindData.subject.length).toBeGreaterThan(0);
    expect(d.kindData.subject.length).toBeLessThanOrEqual(78);
    expect(d.kindData.preheader.length).toBeLessThanOrEqual(110);
    expect(d.markdown).toContain(d.kindData.preheader);
  },
  press_release(d) {
    // No press-release options: every default comes from the target's brand kit.
    expect(d.kindData.dateline).toMatch(DATELINE);
    expect(d.kindData.dateline.startsWith('PORTLAND, ')).toBe(true);
    expect(d.kindData.boilerplate).toBe(BRAND_KIT.pressRelease.boilerplate);
    expect(d.kindData.mediaContact).toEqual(BRAND_KIT.pressRelease.mediaContact);
    expect(d.kindData.quotes).toHaveLength(1);
    expect(d.kindData.quotes[0].mode).toBe('generate');
    expect(d.markdown).toContain(BRAND_KIT.pressRelease.boilerplate);
    expect(d.markdown).toContain('press@acme-coffee.example');
  },
};

describe('all ten kinds through the API (every deliverable validated by the contract)', () => {
  const h = harness({ speed: 'instant' });
  let targetId: Promise<string> | undefined;

  it.each(CONTENT_KINDS)('%s: a build delivers the kind with its own structure', async (kind) => {
    targetId ??= brandTarget(h);
    const { build, deliverable } = await deliver(h, { targetId: await targetId, kind });
    expect(build).not.toHaveProperty('pressRelease');
    expect(deliverable.kind).toBe(kind);
    expect(deliverable.markdown).not.toMatch(/\bto to\b|covers to\b/);
    KIND_FACTS[kind](deliverable);
  });

  it('applies the brand kit SEO preferences: primary keywords in the lead and meta description, secondary in the body', async () => {
    targetId ??= brandTarget(h);
    const { deliverable } = await deliver(h, { targetId: await targetId, kind: 'blog' });
    expect(deliverable.metaDescription.length).toBeLessThanOrEqual(120);
    expect(deliverable.metaDescription.toLowerCase()).toContain('specialty coffee');
    expect(deliverable.markdown.toLowerCase()).toContain('specialty coffee');
    expect(deliverable.markdown.toLowerCase()).toContain('burr grinder');
    expect(deliverable.html).toContain(`<meta name="description" content="${deliverable.metaDescription}"`);
  });
});

describe('kind options', () => {
  it('social: one post per requested platform, each within its limit', async () => {
    const h = harness({ speed: 'instant' });
    const platforms = ['x', 'threads', 'linkedin', 'facebook', 'instagram'];
    const { build, deliverable } = await deliver(h, { targetId: await brandTarget(h), kind: 'social', socialPlatforms: platforms });
    expect(build.socialPlatforms).toEqual(platforms);
    const limits = Object.fromEntries(deliverable.kindData.posts.map((p: { platform: string; limit: number }) => [p.platform, p.limit]));
    expect(limits).toEqual({ x: 280, threads: 500, linkedin: 3000, facebook: 63206, instagram: 2200 });
    for (const post of deliverable.kindData.posts) {
      expect([...post.text].length).toBeLessThanOrEqual(post.limit);
      for (const tag of post.hashtags) expect(post.text).toContain(tag);
    }
  });

  it('press release: dateline, quotes in the three modes, boilerplate and media contact as given', async () => {
    const h = harness({ speed: 'instant' });
    const pressRelease = {
      dateline: { city: 'Lisbon', date: '2026-04-01' },
      quotes: [
        { speaker: 'Grace Hopper', title: 'CEO', text: 'we are very happy  to open our new roastery', mode: 'verbatim' },
        { speaker: 'Alan Turing', title: 'Head Roaster', text: 'we are very happy  to open our new roastery', mode: 'polish' },
        { speaker: 'Katherine Johnson', mode: 'generate' },
      ],
      boilerplate: 'Acme Coffee, founded in 2019, roasts to order.',
      mediaContact: { name: 'Press Office', email: 'media@acme-coffee.example' },
    };
    const { build, deliverable } = await deliver(h, { targetId: await brandTarget(h), kind: 'press_release', objective: 'Announce our new roastery', pressRelease });
    expect(build.pressRelease).toEqual(pressRelease);
    const data = deliverable.kindData;
    expect(data.dateline).toBe('LISBON, April 1, 2026 \u2014');
    expect(data.quotes.map((q: { mode: string }) => q.mode)).toEqual(['verbatim', 'polish', 'generate']);
    expect(data.quotes[0].text).toBe('we are very happy  to open our new roastery');
    expect(data.quotes[1].text).toBe('We are delighted to open our new roastery.');
    expect(data.quotes[2].text.length).toBeGreaterThan(20);
    expect(data.quotes[2]).toMatchObject({ speaker: 'Katherine Johnson', title: 'Spokesperson' });
    expect(data.boilerplate).toBe(pressRelease.boilerplate);
    expect(data.mediaContact).toEqual(pressRelease.mediaContact);
    expect(deliverable.markdown).toContain('We are delighted to open our new roastery.');
    expect(deliverable.markdown).toContain('## About Acme Coffee');
    expect(deliverable.markdown).toContain('media@acme-coffee.example');
    expect(deliverable.markdown).not.toContain('press@acme-coffee.example');
  });

  it("press release: a quote without a mode takes the brand kit's defaultQuoteMode", async () => {
    const h = harness({ speed: 'instant' });
    const targetId = await brandTarget(h, 'polisher', { pressRelease: { defaultQuoteMode: 'polish', datelineCity: 'Oslo' } });
    const { deliverable } = await deliver(h, {
      targetId,
      kind: 'press_release',
      pressRelease: { quotes: [{ speaker: 'Ada', text: 'this is is really good news' }] },
    });
    expect(deliverable.kindData.quotes[0]).toMatchObject({ mode: 'polish', text: 'This is excellent news.' });
    expect(deliverable.kindData.dateline.startsWith('OSLO, ')).toBe(true);
    // No boilerplate and no contact in the kit: an "About" from the target, no contact section.
    expect(deliverable.kindData.mediaContact).toBeNull();
    expect(deliverable.markdown).not.toContain('## Media contact');
  });

  it.each([
    ['pressRelease on a blog', { kind: 'blog', pressRelease: { boilerplate: 'x' } }, 'body.pressRelease'],
    ['socialPlatforms on an email', { kind: 'email', socialPlatforms: ['x'] }, 'body.socialPlatforms'],
    ['a verbatim quote without text', { kind: 'press_release', pressRelease: { quotes: [{ speaker: 'A', mode: 'verbatim' }] } }, 'body.pressRelease.quotes[0].text'],
    ['a polish quote with blank text', { kind: 'press_release', pressRelease: { quotes: [{ speaker: 'A', text: '  ', mode: 'polish' }] } }, 'body.pressRelease.quotes[0].text'],
    ['an unknown platform', { kind: 'social', socialPlatforms: ['myspace'] }, 'body.socialPlatforms[0]'],
    ['a repeated platform', { kind: 'social', socialPlatforms: ['x', 'x'] }, 'body.socialPlatforms'],
    ['a dateline date that is no date', { kind: 'press_release', pressRelease: { dateline: { date: 'tomorrow' } } }, 'body.pressRelease.dateline.date'],
    ['an unknown press-release field', { kind: 'press_release', pressRelease: { embargo: true } }, 'body.pressRelease.embargo'],
    ['a media contact without email', { kind: 'press_release', pressRelease: { mediaContact: { name: 'A' } } }, 'body.pressRelease.mediaContact.email'],
    ['library ids that are not UUIDs', { kind: 'blog', libraryItemIds: ['not-a-uuid'] }, 'body.libraryItemIds[0]'],
    ['a huge boilerplate', { kind: 'press_release', pressRelease: { boilerplate: 'x'.repeat(100_000) } }, 'body.pressRelease.boilerplate'],
  ])('400 VALIDATION_ERROR for %s, and nothing is charged', async (_, fields, path) => {
    const h = harness({ speed: 'instant' });
    const targetId = await brandTarget(h);
    const before = (await h.get('/api/v1/tokens/balance')).body.balance;
    const res = await h.post('/api/v1/builds', { targetId, objective: 'Anything', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(before);
    expect((await h.get('/api/v1/builds')).body.data).toEqual([]);
  });
});

describe('suites', () => {
  it('one distinct title per page, and the price grows with the page count', async () => {
    const h = harness({ speed: 'instant' });
    const account = await h.post('/_sim/accounts', { balance: 1000 }, { key: null });
    const key = account.body.keys.readWrite;
    const targetId = await h.target(key);
    const costs: number[] = [];
    for (const pages of [2, 3, 5, 8]) {
      const res = await h.post('/api/v1/builds', { targetId, kind: 'blog', buildType: 'suite', pages, objective: 'Espresso at home' }, { key });
      const { build, deliverables } = (await h.get(`/api/v1/builds/${res.body.buildId}`, { key })).body;
      costs.push(build.cost);
      expect(deliverables).toHaveLength(pages);
      expect(new Set(deliverables.map((d: { title: string }) => d.title)).size).toBe(pages);
    }
    expect(costs).toEqual([2, 3, 5, 8]);

    // Every surcharge is per page, and so is a dearer kind: (2 + 1 + 1 + 1) × 4.
    const dear = await h.post(
      '/api/v1/builds',
      { targetId, kind: 'press_release', buildType: 'suite', pages: 4, researchMode: 'deep', qualityMode: 'premium', generateImages: true, objective: 'Launch news' },
      { key },
    );
    expect((await h.get(`/api/v1/builds/${dear.body.buildId}`, { key })).body.build.cost).toBe(20);
    expect((await h.get('/api/v1/tokens/balance', { key })).body.balance).toBe(1000 - 18 - 20);
  });

  it('a suite of 21 pages is refused', async () => {
    const h = harness({ speed: 'instant' });
    const res = await h.post('/api/v1/builds', { targetId: await h.target(), kind: 'blog', buildType: 'suite', pages: 21, objective: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.details.fields[0].path).toBe('body.pages');
  });
});

describe('the per-kind schemas of openapi.yaml', () => {
  const doc = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const schemaName = (kind: ContentKind) => `${kind.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}KindData`;
  const validate = (schema: string, value: unknown): string[] => {
    const check = ajv.getSchema(`openapi#/components/schemas/${schema}`);
    if (!check) throw new Error(`no schema ${schema}`);
    return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

  it.each(CONTENT_KINDS)('%s: describes exactly what the generator emits, with and without options', (kind) => {
    const variants = [{}, { qualityMode: 'premium', generateImages: true, socialPlatforms: ['x', 'threads', 'linkedin', 'facebook', 'instagram'] }];
    for (const [i, overrides] of variants.entries()) {
      const out = generateContent(sampleInput({ kind, deliverableId: `schema-${i}`, ...(overrides as object) }));
      expect(validate(schemaName(kind), out.kindData)).toEqual([]);
      for (const source of out.sources) expect(validate('Source', source)).toEqual([]);
      for (const claim of out.claims) expect(validate('Claim', claim)).toEqual([]);
      for (const image of out.images) expect(validate('GeneratedImage', image)).toEqual([]);
    }
  });

  it('rejects what a kind does not emit', () => {
    const out = generateContent(sampleInput());
    expect(validate('BlogKindData', { ...out.kindData, extra: 1 })).not.toEqual([]);
    expect(validate('Claim', { ...out.claims[0], verdict: 'maybe' })).not.toEqual([]);
    expect(validate('EmailKindData', { ...generateContent(sampleInput({ kind: 'email' })).kindData, subject: 'x'.repeat(79) })).not.toEqual([]);
  });

  it('accepts a press release without a media contact', () => {
    const target = structuredClone(sampleInput().target);
    target.brandKit.pressRelease.mediaContact = null;
    const out = generateContent(sampleInput({ kind: 'press_release', target }));
    expect(validate('PressReleaseKindData', out.kindData)).toEqual([]);
  });

  it('a deliverable whose kindData belongs to another kind breaks the contract', async () => {
    const h = harness({ speed: 'instant' });
    const targetId = await h.target();
    const { summaries } = await deliver(h, { targetId, kind: 'email' });
    const res = await h.get(`/api/v1/deliverables/${summaries[0].id}`);
    const observe = (body: unknown) => ({ method: 'GET', url: `/api/v1/deliverables/${summaries[0].id}`, status: 200, headers: res.headers, body: JSON.stringify(body) });
    expect(contract.validate(observe(res.body))).toEqual([]);
    const blogData = generateContent(sampleInput()).kindData;
    expect(contract.validate(observe({ ...res.body, kindData: blogData })).length).toBeGreaterThan(0);
    expect(contract.validate(observe({ ...res.body, kindData: { ...res.body.kindData, extra: true } })).length).toBeGreaterThan(0);
  });
});
