import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorHandlers } from '../src/adapters/msw.js';
import { assertContract } from './support/contract.js';
import { T0 } from './support/harness.js';

const BASE = 'https://api.content-service.test';
const { simulator, handlers } = simulatorHandlers({ baseUrl: BASE, frozenAt: T0 });
const server = setupServer(...handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

/** Calls through msw and validates the response against the contract; `key: null` sends none. */
async function call(method: string, path: string, body?: unknown, extra: Record<string, string> = {}, key: string | null = simulator.keys.readWrite) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}), ...extra },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, headers: res.headers, text, json: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined };
}

describe('msw handlers over the same engine', () => {
  it('runs the whole flow through fetch in-process', async () => {
    expect((await call('GET', '/api/v1/tokens/balance')).json.balance).toBe(100);
    const target = await call('POST', '/api/v1/targets', { name: 'Acme', slug: 'acme' });
    expect(target.status).toBe(201);
    const build = await call('POST', '/api/v1/builds', { targetId: target.json.id, kind: 'how_to', objective: 'Descale a kettle' }, { 'Idempotency-Key': 'k1' });
    expect(build.status).toBe(202);
    const replay = await call('POST', '/api/v1/builds', { targetId: target.json.id, kind: 'how_to', objective: 'Descale a kettle' }, { 'Idempotency-Key': 'k1' });
    expect(replay.json).toMatchObject({ buildId: build.json.buildId, idempotent: true });

    const advanced = await call('POST', '/_sim/clock/advance', { seconds: 60 }, {}, null);
    expect(advanced.status).toBe(200);
    const done = await call('GET', `/api/v1/builds/${build.json.buildId}`);
    expect(done.json.build.status).toBe('completed');
    const md = await call('GET', `/api/v1/deliverables/${done.json.deliverables[0].id}/download?format=md`);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.text.length).toBeGreaterThan(200);
  });

  it('answers errors in the same shape as over HTTP', async () => {
    const res = await call('GET', '/api/v1/tokens/balance', undefined, {}, null);
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'UNAUTHORIZED', details: {} });
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
  });
});
