import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { DEFAULT_QUOTAS, RECORD_BYTES, type QuotaName } from '../../src/limits/quotas.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

/**
 * One account at every quota beside another account: each write past a quota is 409 CONFLICT
 * naming it (and stores nothing), the quotas show in GET /_sim/accounts/{accountId}, and the
 * other account's calls and /healthz go on as before (p95 under 50 ms).
 */
const QUOTAS = { targets: 3, libraryItems: 4, chats: 2, images: 2, audio: 1, shares: 2, keys: 6 };
let sim: Simulator;
let server: Server;
let base: string;
let full: { id: string; key: string };
let other: { id: string; key: string };

async function call(method: string, path: string, key: string | null, body?: unknown): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, body: text && (res.headers.get('content-type') ?? '').startsWith('application/json') ? JSON.parse(text) : undefined, ms };
}

async function newAccount(): Promise<{ id: string; key: string }> {
  const made = await call('POST', '/_sim/accounts', null, { balance: 1000 });
  expect(made.status).toBe(201);
  return { id: made.body.accountId, key: made.body.keys.readWrite };
}

const targetBody = (slug: string) => ({ name: `Brand ${slug}`, slug, description: 'Coffee gear', brandKit: { voice: 'expert', tone: 'warm' } });

/** Creates records until the quota refuses one; answers the refusal. */
async function fill(name: QuotaName, create: (i: number) => Promise<{ status: number; body: any }>): Promise<{ status: number; body: any }> {
  for (let i = 0; i < 50; i++) {
    const answer = await create(i);
    if (answer.status === 409) return answer;
    expect(answer.status, `${name} #${i}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  }
  throw new Error(`${name}: never refused`);
}

const p95 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.95) - 1] as number;

beforeAll(async () => {
  sim = createSimulator({ frozenAt: T0, speed: 'instant', onFault: () => {}, quotas: QUOTAS });
  server = createServer(createNodeHandler(sim));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  full = await newAccount();
  other = await newAccount();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('quotas per account', () => {
  it('refuses each kind past its quota with 409 naming it, stores nothing, and leaves another account unaffected', async () => {
    const { key } = full;
    const refusals: Record<string, any> = {};
    refusals.targets = await fill('targets', (i) => call('POST', '/api/v1/targets', key, targetBody(`t${i}`)));
    const targetId = (await call('GET', '/api/v1/targets?limit=1', key)).body.data[0].id as string;
    refusals.libraryItems = await fill('libraryItems', (i) => call('POST', `/api/v1/targets/${targetId}/library`, key, { type: 'glossary_term', name: `Term ${i}`, content: 'A word of the trade.' }));
    refusals.chats = await fill('chats', () => call('POST', '/api/v1/chats', key, { targetId }));
    refusals.images = await fill('images', (i) => call('POST', '/api/v1/images', key, { prompt: `A cup of coffee ${i}` }));
    const build = await call('POST', '/api/v1/builds', key, { targetId, buildType: 'single', kind: 'blog', objective: 'Cold brew at home', researchPolicy: 'required' });
    sim.clock.advance(3_600_000);
    const deliverableId = (await call('GET', `/api/v1/builds/${build.body.buildId}`, key)).body.deliverables[0].id as string;
    const voices = ['aria', 'brook', 'cedar', 'dune', 'ember'];
    refusals.audio = await fill('audio', (i) => call('POST', `/api/v1/deliverables/${deliverableId}/audio`, key, { voice: voices[i] }));
    refusals.shares = await fill('shares', () => call('POST', `/api/v1/deliverables/${deliverableId}/shares`, key, {}));
    refusals.keys = await fill('keys', (i) => call('POST', '/api/v1/keys', key, { name: `k${i}`, scopes: ['svc:read'] }));

    for (const [name, limit] of Object.entries(QUOTAS)) {
      expect(refusals[name], name).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { quota: name, limit, used: limit } } });
    }
    // Asking again for a listen version that exists stores nothing, and is answered at the quota too.
    expect((await call('POST', `/api/v1/deliverables/${deliverableId}/audio`, key, { voice: 'aria' })).status).toBe(200);

    // The control API shows every quota's limit and use.
    const shown = await call('GET', `/_sim/accounts/${full.id}`, null);
    expect(shown.status).toBe(200);
    for (const [name, limit] of Object.entries(QUOTAS)) expect(shown.body.quotas[name]).toEqual({ limit, used: limit });
    expect(shown.body.quotas.storedBytes.limit).toBe(DEFAULT_QUOTAS.storedBytes);
    expect(shown.body.quotas.storedBytes.used).toBe(Object.entries(QUOTAS).reduce((sum, [name, n]) => sum + n * RECORD_BYTES[name as keyof typeof RECORD_BYTES], 0));
    expect(shown.body.quotas.faultRules).toEqual({ limit: 100, used: 0 });
    expect((await call('GET', '/_sim/accounts/00000000-0000-4000-8000-000000000000', null)).status).toBe(404);

    // The other account writes and reads as if nothing happened, and /healthz stays quick.
    const health: number[] = [];
    for (let i = 0; i < QUOTAS.targets; i++) expect((await call('POST', '/api/v1/targets', other.key, targetBody(`o${i}`))).status).toBe(201);
    for (let i = 0; i < 40; i++) {
      health.push((await call('GET', '/healthz', null)).ms);
      expect((await call('GET', '/api/v1/tokens/balance', other.key)).status).toBe(200);
      // The full account keeps being refused meanwhile, cheaply.
      expect((await call('POST', '/api/v1/targets', full.key, targetBody(`x${i}`))).status).toBe(409);
    }
    expect(p95(health)).toBeLessThan(50);
  });

  it('counts stored bytes across kinds: a small byte quota refuses before any count is reached', async () => {
    const small = createSimulator({ frozenAt: T0, onFault: () => {}, quotas: { storedBytes: 3 * RECORD_BYTES.targets + 4 * RECORD_BYTES.keys } });
    const post = (slug: string) =>
      small.handle({ method: 'POST', url: '/api/v1/targets', headers: { authorization: `Bearer ${small.keys.readWrite}`, 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(targetBody(slug))) });
    // The demo account holds four keys; three targets fit beside them, the fourth does not.
    for (const slug of ['a', 'b', 'c']) expect(post(slug).status).toBe(201);
    const refused = post('d');
    assertContract({ method: 'POST', url: '/api/v1/targets', status: refused.status, headers: refused.headers, body: refused.body as string });
    expect(JSON.parse(refused.body as string)).toMatchObject({ code: 'CONFLICT', details: { quota: 'storedBytes' } });
  });
});
