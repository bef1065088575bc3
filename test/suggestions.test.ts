import { describe, expect, it } from 'vitest';
import { harness, T0, type Harness } from './support/harness.js';

const KINDS = ['blog', 'web_page', 'news', 'how_to', 'doc', 'resource', 'image', 'social', 'email', 'press_release'];
const windowReset = Math.ceil((T0 - (T0 % 60_000) + 60_000) / 1000);

async function coffeeBrand(h: Harness, key = h.keys.readWrite): Promise<string> {
  const res = await h.post(
    '/api/v1/targets',
    {
      name: 'Northside Roasters',
      slug: 'northside',
      description: 'Specialty coffee roaster for home baristas',
      brandKit: { voice: 'expert', tone: 'warm', seo: { primaryKeywords: ['cold brew'], secondaryKeywords: ['espresso grinder'] } },
    },
    { key },
  );
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('suggestions: topics', () => {
  it('suggests trending ideas for a target, most interesting first, each ready for a build', async () => {
    const h = harness();
    const targetId = await coffeeBrand(h);
    const res = await h.post('/api/v1/suggestions/topics', { targetId }, { key: h.keys.writeOnly });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('20');
    const ideas = res.body.data as Array<{ title: string; angle: string; kind: string; estimatedInterest: number; keywords: string[]; objective: string }>;
    expect(ideas).toHaveLength(5);
    const interest = ideas.map((i) => i.estimatedInterest);
    expect(interest).toEqual([...interest].sort((a, b) => b - a));
    expect(new Set(ideas.map((i) => i.title)).size).toBe(5);
    expect(new Set(ideas.map((i) => i.angle)).size).toBe(5);
    for (const idea of ideas) {
      expect(KINDS).toContain(idea.kind);
      expect(idea.objective).toContain(idea.title);
      expect(idea.objective).toContain('for home baristas');
      expect(['cold brew', 'espresso grinder']).toContain(idea.keywords[0]);
    }
    // Each idea's objective goes straight into a build.
    const build = await h.post('/api/v1/builds', { targetId, kind: ideas[0]?.kind, objective: ideas[0]?.objective });
    expect(build.status).toBe(202);
  });

  it('works from a seed phrase alone, honours kind and count, and moves from day to day', async () => {
    const h = harness();
    const ask = () => h.post('/api/v1/suggestions/topics', { phrase: 'remote work for small teams', kind: 'email', count: 8 });
    const today = await ask();
    expect(today.body.data).toHaveLength(8);
    for (const idea of today.body.data) {
      expect(idea.kind).toBe('email');
      expect(idea.keywords[0]).toBe('remote work');
      expect(idea.objective).toMatch(/^Write an email titled .+ for small teams: /);
    }
    expect((await ask()).body).toEqual(today.body); // stable within a day
    h.advance(24 * 60 * 60_000);
    const tomorrow = await ask();
    expect(tomorrow.body.data.map((i: { estimatedInterest: number }) => i.estimatedInterest)).not.toEqual(
      today.body.data.map((i: { estimatedInterest: number }) => i.estimatedInterest),
    );
  });

  it.each([
    ['neither targetId nor phrase', { count: 3 }, 400],
    ['a count of 11', { phrase: 'coffee', count: 11 }, 400],
    ['a count that is a string', { phrase: 'coffee', count: '3' }, 400],
    ['a blank phrase', { phrase: '   ' }, 400],
    ['a phrase over 200 characters', { phrase: 'x'.repeat(201) }, 400],
    ['an unknown kind', { phrase: 'coffee', kind: 'poem' }, 400],
    ['an unknown field', { phrase: 'coffee', trending: true }, 400],
    ['a target id that is not a UUID', { targetId: 'northside' }, 400],
    ['an unknown target', { targetId: '0b6a4c1e-5d2f-4e8a-9b7c-1d2e3f4a5b6c' }, 404],
  ])('refuses %s', async (_name, body, status) => {
    const h = harness();
    const res = await h.post('/api/v1/suggestions/topics', body);
    expect(res.status).toBe(status);
  });

  it('404 for another account\u2019s target', async () => {
    const h = harness();
    const targetId = await coffeeBrand(h);
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    const res = await h.post('/api/v1/suggestions/topics', { targetId }, { key: stranger });
    expect(res.status).toBe(404);
    expect(res.body.details).toEqual({ resource: 'target', id: targetId });
  });
});

describe('suggestions: build-brief autofill', () => {
  it('returns a brief that POST /api/v1/builds accepts, at the estimated cost', async () => {
    const h = harness();
    const targetId = await coffeeBrand(h);
    const res = await h.post('/api/v1/suggestions/brief', { targetId, prompt: 'a 5-part in-depth series on home espresso with images' });
    expect(res.status).toBe(200);
    expect(res.body.brief).toEqual({
      targetId,
      buildType: 'suite',
      kind: 'blog',
      objective: 'Write a series of 5 blog posts about home espresso for home baristas. Work in the keyword cold brew.',
      researchPolicy: 'required',
      researchMode: 'deep',
      qualityMode: 'standard',
      pages: 5,
      generateImages: true,
    });
    expect(res.body.estimatedCost).toBe(15); // (1 blog + 1 deep + 1 images) x 5 pages
    expect(res.body.rationale).toEqual(expect.arrayContaining([expect.stringMatching(/^buildType suite with 5 pages/), expect.stringMatching(/^researchMode deep/)]));

    const build = await h.post('/api/v1/builds', res.body.brief);
    expect(build.status).toBe(202);
    const created = (await h.get(`/api/v1/builds/${build.body.buildId}`)).body.build;
    expect(created).toMatchObject({ ...res.body.brief, cost: 15 });
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(85);
  });

  it.each([
    ['Announce our new oat milk cold brew', { kind: 'press_release', buildType: 'single' }],
    ['A quick newsletter about our spring beans', { kind: 'email', researchPolicy: 'optional' }],
    ['Step by step: descaling an espresso machine', { kind: 'how_to' }],
    ['Opinion piece on coffee prices', { kind: 'blog', researchPolicy: 'none' }],
    ['A premium landing page for our subscription', { kind: 'web_page', qualityMode: 'premium' }],
    ['A downloadable checklist for dialing in espresso', { kind: 'resource' }],
  ])('reads "%s"', async (prompt, expected) => {
    const h = harness();
    const targetId = await coffeeBrand(h);
    const res = await h.post('/api/v1/suggestions/brief', { targetId, prompt }, { key: h.keys.writeOnly });
    expect(res.status).toBe(200);
    expect(res.body.brief).toMatchObject(expected);
    expect((await h.post('/api/v1/builds', res.body.brief)).status).toBe(202);
  });

  it('keeps a forced kind, and never copies a [fail:] marker into the objective', async () => {
    const h = harness();
    const targetId = await coffeeBrand(h);
    const res = await h.post('/api/v1/suggestions/brief', { targetId, prompt: 'Cold brew basics [fail:drafting] [fail:nowhere]', kind: 'social' });
    expect(res.body.brief.kind).toBe('social');
    expect(res.body.brief.objective).not.toContain('[');
    expect((await h.post('/api/v1/builds', res.body.brief)).status).toBe(202);
  });

  it('refuses a missing target, another account\u2019s target and bad input', async () => {
    const h = harness();
    const targetId = await coffeeBrand(h);
    expect((await h.post('/api/v1/suggestions/brief', { prompt: 'Cold brew' })).body.details.fields[0].path).toBe('body.targetId');
    expect((await h.post('/api/v1/suggestions/brief', { targetId, prompt: '' })).status).toBe(400);
    expect((await h.post('/api/v1/suggestions/brief', { targetId, prompt: 'x'.repeat(1001) })).status).toBe(400);
    expect((await h.post('/api/v1/suggestions/brief', { targetId, prompt: ['Cold brew'] })).status).toBe(400);
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    expect((await h.post('/api/v1/suggestions/brief', { targetId, prompt: 'Cold brew' }, { key: stranger })).status).toBe(404);
  });
});

describe('suggestions: SEO keywords', () => {
  const TEXT =
    'Cold brew coffee is smooth. To make cold brew at home, steep coarse coffee grounds in cold water for 12 hours. ' +
    'Cold brew keeps for a week. Coffee grounds should be coarse. Grinders matter: a burr grinder gives even coffee grounds.';

  it('extracts keywords from a known text: scored, sorted, deduplicated, without stop words', async () => {
    const h = harness();
    const res = await h.post('/api/v1/suggestions/keywords', { text: TEXT, max: 6 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { keyword: 'coffee grounds', score: 1, occurrences: 3 },
        { keyword: 'cold brew', score: 1, occurrences: 3 },
        { keyword: 'coffee', score: 0.889, occurrences: 4 },
        { keyword: 'cold', score: 0.889, occurrences: 4 },
        { keyword: 'coarse', score: 0.444, occurrences: 2 },
        { keyword: 'grinder', score: 0.444, occurrences: 2 }, // "Grinders" and "grinder" are one keyword
      ],
      wordCount: 41,
    });
  });

  it('lists each keyword once, drops words only ever seen inside a longer keyword, and honours max', async () => {
    const h = harness();
    const all = (await h.post('/api/v1/suggestions/keywords', { text: TEXT, max: 50 })).body.data as Array<{ keyword: string; score: number }>;
    const words = all.map((k) => k.keyword);
    expect(new Set(words).size).toBe(words.length);
    expect(words).not.toContain('brew'); // only inside "cold brew"
    expect(words).not.toContain('grounds'); // only inside "coffee grounds"
    for (const stop of ['is', 'to', 'at', 'in', 'for', 'a', 'should', 'the']) expect(words).not.toContain(stop);
    expect(all.map((k) => k.score)).toEqual([...all.map((k) => k.score)].sort((a, b) => b - a));
    expect((await h.post('/api/v1/suggestions/keywords', { text: TEXT })).body.data).toHaveLength(10);
    expect((await h.post('/api/v1/suggestions/keywords', { text: 'It is what it is, and so on.' })).body.data).toEqual([]);
  });

  it.each([
    ['an empty text', { text: '' }],
    ['a text over 50000 characters', { text: 'coffee '.repeat(7200) }],
    ['a number', { text: 12 }],
    ['max 0', { text: 'coffee', max: 0 }],
    ['max 51', { text: 'coffee', max: 51 }],
    ['an unknown field', { text: 'coffee', language: 'en' }],
  ])('400 for %s', async (_name, body) => {
    const h = harness();
    const res = await h.post('/api/v1/suggestions/keywords', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('suggestions: press-release quotes', () => {
  const raw = 'we are very very excited  to launch this ,it is really important for us';

  it('keeps verbatim text exactly and polishes without changing the meaning', async () => {
    const h = harness();
    const verbatim = await h.post('/api/v1/suggestions/quotes', { speaker: 'Dana Ortiz', title: 'CEO', topic: 'our oat milk cold brew', mode: 'verbatim', text: raw });
    expect(verbatim.status).toBe(200);
    expect(verbatim.body.data).toEqual([{ speaker: 'Dana Ortiz', title: 'CEO', text: raw, mode: 'verbatim' }]);
    const polish = await h.post('/api/v1/suggestions/quotes', { speaker: 'Dana Ortiz', topic: 'our oat milk cold brew', mode: 'polish', text: raw });
    expect(polish.body.data).toEqual([{ speaker: 'Dana Ortiz', title: 'Spokesperson', text: 'We are thrilled to launch this, it is essential for us.', mode: 'polish' }]);
  });

  it('generates distinct quotes about the topic for the brand', async () => {
    const h = harness();
    const targetId = await coffeeBrand(h);
    const res = await h.post('/api/v1/suggestions/quotes', { speaker: 'Dana Ortiz', title: 'Founder', topic: 'our new oat milk cold brew', mode: 'generate', count: 3, targetId }, { key: h.keys.writeOnly });
    expect(res.status).toBe(200);
    const texts = res.body.data.map((q: { text: string }) => q.text);
    expect(texts).toHaveLength(3);
    expect(new Set(texts).size).toBe(3);
    for (const q of res.body.data) expect(q).toMatchObject({ speaker: 'Dana Ortiz', title: 'Founder', mode: 'generate' });
    for (const text of texts) expect(text).toMatch(/oat milk cold brew|Northside Roasters/);
    // Same request, same quotes.
    expect((await h.post('/api/v1/suggestions/quotes', { speaker: 'Dana Ortiz', title: 'Founder', topic: 'our new oat milk cold brew', mode: 'generate', count: 3, targetId })).body).toEqual(res.body);
  });

  it('refuses verbatim or polish without text, an unknown mode, and another account\u2019s target', async () => {
    const h = harness();
    for (const mode of ['verbatim', 'polish']) {
      const res = await h.post('/api/v1/suggestions/quotes', { speaker: 'Dana', topic: 'launch', mode, text: '  ' });
      expect(res.status).toBe(400);
      expect(res.body.details.fields[0].path).toBe('body.text');
    }
    const unknown = await h.post('/api/v1/suggestions/quotes', { speaker: 'Dana', topic: 'launch', mode: 'paraphrase' });
    expect(unknown.body.details.fields).toEqual([{ path: 'body.mode', message: 'must be one of: verbatim, polish, generate' }]);
    expect((await h.post('/api/v1/suggestions/quotes', { speaker: 'Dana', topic: 'launch', mode: 'generate', count: 4 })).status).toBe(400);
    expect((await h.post('/api/v1/suggestions/quotes', { speaker: 'x'.repeat(121), topic: 'launch', mode: 'generate' })).status).toBe(400);
    const targetId = await coffeeBrand(h);
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    expect((await h.post('/api/v1/suggestions/quotes', { speaker: 'Dana', topic: 'launch', mode: 'generate', targetId }, { key: stranger })).status).toBe(404);
  });
});

describe('suggestions: scope and rate limit', () => {
  it('need svc:write (generation calls, like images), though they store nothing', async () => {
    const h = harness();
    for (const [path, body] of [
      ['topics', { phrase: 'coffee' }],
      ['brief', { targetId: '0b6a4c1e-5d2f-4e8a-9b7c-1d2e3f4a5b6c', prompt: 'coffee' }],
      ['keywords', { text: 'coffee' }],
      ['quotes', { speaker: 'Dana', topic: 'coffee', mode: 'generate' }],
    ] as const) {
      const res = await h.post(`/api/v1/suggestions/${path}`, body, { key: h.keys.readOnly });
      expect(res.status, path).toBe(403);
      expect(res.body.details).toEqual({ requiredScope: 'svc:write', grantedScopes: ['svc:read'] });
    }
    // Nothing was stored: no target, build, image or transaction beyond the starting purchase.
    expect((await h.get('/api/v1/targets')).body.data).toEqual([]);
    expect((await h.get('/api/v1/builds')).body.data).toEqual([]);
    expect((await h.get('/api/v1/tokens/transactions')).body.data).toHaveLength(1);
  });

  it('allows 20 generation calls a minute per key; the 21st gets 429 key-generation, default routes still work', async () => {
    const h = harness();
    for (let i = 1; i <= 20; i++) {
      const res = await h.post('/api/v1/suggestions/keywords', { text: `coffee number ${i}` });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('20');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(20 - i));
    }
    const limited = await h.post('/api/v1/suggestions/topics', { phrase: 'coffee' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'key-generation', limit: 20 } });
    expect(Number(limited.headers['retry-after'])).toBe(windowReset - Math.floor(T0 / 1000));
    expect(limited.headers['x-ratelimit-reset']).toBe(String(windowReset));
    // Image routes share the generation class; default-class routes have their own bucket.
    expect((await h.post('/api/v1/images', { prompt: 'x' })).status).toBe(429);
    const balance = await h.get('/api/v1/tokens/balance');
    expect(balance.status).toBe(200);
    expect(balance.headers['x-ratelimit-limit']).toBe('60');
    expect(balance.body.balance).toBe(100); // the refused image charged nothing
    // Another key of the same user has its own generation bucket.
    expect((await h.post('/api/v1/suggestions/keywords', { text: 'coffee' }, { key: h.keys.writeOnly })).status).toBe(200);
    h.advance(Number(limited.headers['retry-after']) * 1000);
    expect((await h.post('/api/v1/suggestions/topics', { phrase: 'coffee' })).status).toBe(200);
  });
});
