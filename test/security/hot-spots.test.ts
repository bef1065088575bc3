import { describe, expect, it } from 'vitest';
import { DEFAULT_QUOTAS } from '../../src/limits/quotas.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

/**
 * The requests that once held the event loop for a second, each answered in under 50 ms now
 * (the median of several, so that one pause of a loaded machine does not decide): a listen
 * version of an objective made of 4,000 commas or curly quotes, and a chat message over a
 * library at its quota. (The deeply nested MCP id is in test/mcp/mcp-invalid-params.test.ts.)
 */
function client(sim: Simulator, key = sim.keys.readWrite) {
  return (method: string, url: string, body?: unknown) => {
    const started = performance.now();
    const reply = sim.handle({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }),
    });
    const ms = performance.now() - started;
    const text = typeof reply.body === 'string' ? reply.body : '';
    if (typeof reply.body === 'string') assertContract({ method, url, status: reply.status, headers: reply.headers, body: text });
    return { status: reply.status, json: text.startsWith('{') ? JSON.parse(text) : undefined, bytes: typeof reply.body === 'string' ? reply.body.length : reply.body.byteLength, ms };
  };
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;

function simulator(): { sim: Simulator; call: ReturnType<typeof client>; targetId: string } {
  const sim = createSimulator({ frozenAt: T0, speed: 'instant', onFault: () => {}, rateLimits: { perKey: { default: 1e9, 'build-create': 1e9, generation: 1e9 }, perUser: 1e9 } });
  const call = client(sim);
  const target = call('POST', '/api/v1/targets', { name: 'Crumb & Co', slug: 'crumb', description: 'Coffee gear', brandKit: { voice: 'expert', tone: 'warm' } });
  expect(target.status).toBe(201);
  return { sim, call, targetId: target.json.id };
}

describe('requests bounded in CPU', () => {
  it.each([
    ['4,000 commas', `a${','.repeat(3998)}b`],
    ['4,000 curly quotes', `a${'\u201c'.repeat(3998)}b`],
    ['1,000 quoted words', '\u201ca\u201d '.repeat(1000).trim()],
  ])('a listen version of an objective of %s is made and downloaded in under 50 ms', (_, objective) => {
    const { sim, call, targetId } = simulator();
    const builds = Array.from({ length: 3 }, () => call('POST', '/api/v1/builds', { targetId, buildType: 'single', kind: 'blog', objective, researchPolicy: 'required' }));
    for (const build of builds) expect(build.status).toBe(202);
    sim.clock.advance(3_600_000);
    const deliverables = builds.map((build) => call('GET', `/api/v1/builds/${build.json.buildId}`).json.deliverables[0].id as string);
    const made = deliverables.flatMap((deliverableId) => ['aria', 'brook', 'cedar', 'dune', 'ember'].map((voice) => call('POST', `/api/v1/deliverables/${deliverableId}/audio`, { voice })));
    for (const answer of made) expect(answer.status).toBe(201);
    const audioId = made[0]!.json.id as string;
    const downloads = Array.from({ length: 7 }, () => call('GET', `/api/v1/audio/${audioId}/file`));
    for (const answer of downloads) expect(answer.status).toBe(200);
    // Rendered once, then kept with the build's content: every download is the same file.
    expect(new Set(downloads.map((d) => d.bytes)).size).toBe(1);
    expect(downloads[0]!.bytes).toBeGreaterThan(10_000);
    expect(median(made.map((m) => m.ms))).toBeLessThan(50);
    expect(median(downloads.map((d) => d.ms))).toBeLessThan(50);
  });

  it(`a chat message over a library at its quota (${DEFAULT_QUOTAS.libraryItems} items of 2,000 characters) is answered in under 50 ms`, () => {
    const { call, targetId } = simulator();
    const filler = 'Grinders burrs espresso roast origin brew ratio crema tamping pressure extraction '.repeat(30).slice(0, 2000);
    let created = 0;
    for (;;) {
      const item = call('POST', `/api/v1/targets/${targetId}/library`, { type: created % 2 ? 'glossary_term' : 'product_blurb', name: `Item ${created} burr grinder`, content: filler });
      if (item.status === 409) {
        expect(item.json).toMatchObject({ code: 'CONFLICT', details: { quota: 'libraryItems' } });
        break;
      }
      expect(item.status).toBe(201);
      created++;
    }
    expect(created).toBe(DEFAULT_QUOTAS.libraryItems);
    const chat = call('POST', '/api/v1/chats', { targetId });
    expect(chat.status).toBe(201);
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const answer = call('POST', `/api/v1/chats/${chat.json.id}/messages`, { content: `Which burr grinder suits an espresso roast with more crema, number ${i}?` });
      expect(answer.status).toBe(201);
      expect(answer.json.reply.references.length).toBeGreaterThan(0);
      times.push(answer.ms);
    }
    expect(median(times)).toBeLessThan(50);
  });

  it.each([
    ['4,000 colons', `a${':'.repeat(3998)}b`],
    ['4,000 commas', `a${','.repeat(3998)}b`],
    ['4,000 question marks', `a${'?'.repeat(3998)}b`],
  ])('a chat message, a build objective and keyword extraction of %s are answered in under 50 ms', (_, text) => {
    const { sim, call, targetId } = simulator();
    const chat = call('POST', '/api/v1/chats', { targetId });
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const answer = call('POST', `/api/v1/chats/${chat.json.id}/messages`, { content: text });
      expect(answer.status).toBe(201);
      times.push(answer.ms);
    }
    expect(median(times)).toBeLessThan(50);
    const builds = Array.from({ length: 5 }, () => call('POST', '/api/v1/builds', { targetId, buildType: 'single', kind: 'blog', objective: text, researchPolicy: 'required' }));
    sim.clock.advance(3_600_000);
    const reads = builds.map((b) => call('GET', `/api/v1/builds/${b.json.buildId}`));
    for (const read of reads) expect(read.json.build.status).toBe('completed');
    expect(median(reads.map((r) => r.ms))).toBeLessThan(50);
    const keywords = Array.from({ length: 5 }, () => call('POST', '/api/v1/suggestions/keywords', { text: text.repeat(12) }));
    for (const answer of keywords) expect(answer.status).toBe(200);
    expect(median(keywords.map((k) => k.ms))).toBeLessThan(50);
  });
});
