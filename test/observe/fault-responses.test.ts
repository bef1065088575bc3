import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createMswHandlers } from '../../src/adapters/msw.js';
import { createSimulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { serve, type Served } from './support.js';

const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));

async function started() {
  const served = await serve();
  running.push(served);
  return served;
}

const control = { key: null } as const;

describe('fault rules answer any documented error', () => {
  it('gives each status its code, details and headers as the contract documents them (every response validated)', async () => {
    const s = await started();
    const me = await s.account();
    const inject = async (response: Record<string, unknown>, operationId = 'getTokenBalance') =>
      (await s.call('POST', '/_sim/faults', { ...control, body: { accountId: me.id, operationId, response, times: 1 } })).status;
    const balance = () => s.call('GET', '/api/v1/tokens/balance', { key: me.key });

    expect(await inject({ status: 401, code: 'INVALID_API_KEY' })).toBe(201);
    const unauthorized = await balance();
    expect([unauthorized.status, unauthorized.json.code]).toEqual([401, 'INVALID_API_KEY']);
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Bearer/);

    expect(await inject({ status: 403 })).toBe(201);
    const scope = await balance();
    expect([scope.status, scope.json.code, scope.json.details.requiredScope]).toEqual([403, 'SCOPE_REQUIRED', 'svc:read']);

    expect(await inject({ status: 400, message: 'Nope.' })).toBe(201);
    const invalid = await balance();
    expect([invalid.status, invalid.json.code, invalid.json.error]).toEqual([400, 'VALIDATION_ERROR', 'Nope.']);
    expect(invalid.json.details.fields).toHaveLength(1);

    expect(await inject({ status: 402 }, 'createBuild')).toBe(201);
    const poor = await s.call('POST', '/api/v1/builds', { key: me.key, body: { targetId: '00000000-0000-4000-8000-000000000000', kind: 'blog', objective: 'x' } });
    expect([poor.status, poor.json.code]).toEqual([402, 'INSUFFICIENT_TOKENS']);
    expect(poor.json.details).toEqual({ required: 1, available: 0, shortfall: 1 });
    // Nothing was charged or made: the fault answered instead of the operation.
    expect((await balance()).json.balance).toBe(50);

    const entries = (await s.call('GET', `/_sim/journal?accountId=${me.id}`, control)).json.data;
    expect(entries.filter((e: { injected: string | null }) => e.injected).map((e: { status: number }) => e.status)).toEqual([402, 400, 403, 401]);
  });

  it('refuses a status or code the operations it reaches do not document, and narrows by method and path', async () => {
    const s = await started();
    const refuse = async (body: unknown) => (await s.call('POST', '/_sim/faults', { ...control, body })).json.details?.fields?.[0];
    expect(await refuse({ operationId: 'getTokenBalance', response: { status: 402 } })).toMatchObject({ path: 'body.response.status', message: expect.stringContaining('getTokenBalance') });
    expect(await refuse({ operationId: 'getTokenBalance', response: { status: 401, code: 'NOT_FOUND' } })).toMatchObject({ path: 'body.response.code' });
    expect(await refuse({ response: { status: 404 } })).toMatchObject({ path: 'body.response.status' });
    expect((await s.call('POST', '/_sim/faults', { ...control, body: { response: { status: 418 } } })).status).toBe(400);
    // 402 is documented by createBuild: a rule narrowed to POST /api/v1/builds reaches only operations that document it.
    expect((await s.call('POST', '/_sim/faults', { ...control, body: { method: 'POST', path: '/api/v1/builds', response: { status: 402 } } })).status).toBe(201);
    expect(await refuse({ method: 'GET', path: '/api/v1/builds', response: { status: 402 } })).toMatchObject({ path: 'body.response.status' });
    // A Prefer header takes any status the operation documents too.
    const prefer = await s.call('GET', '/api/v1/targets/00000000-0000-4000-8000-000000000000', { headers: { Prefer: 'code=404' } });
    expect([prefer.status, prefer.json.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('a slow body', () => {
  it('sends the status and headers at once and the body over the time asked, intact', async () => {
    const s = await started();
    const me = await s.account();
    await s.call('POST', '/_sim/faults', { ...control, body: { accountId: me.id, operationId: 'listTargets', slowBody: { totalMs: 600, chunks: 4 }, times: 1 } });
    const started_ = performance.now();
    const res = await fetch(`${s.base}/api/v1/targets`, { headers: { Authorization: `Bearer ${me.key}` } });
    const headersAfter = performance.now() - started_;
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const bodyAfter = performance.now() - started_;
    const text = Buffer.concat(chunks).toString();
    assertContract({ method: 'GET', url: '/api/v1/targets', status: res.status, headers: Object.fromEntries(res.headers), body: text });
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ data: [], nextCursor: null });
    expect(headersAfter).toBeLessThan(400);
    expect(bodyAfter).toBeGreaterThanOrEqual(550);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('comes slowly through the msw handlers as well', async () => {
    const simulator = createSimulator();
    const server = setupServer(...createMswHandlers(simulator, { baseUrl: 'https://api.example.test' }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const key = simulator.keys.readWrite;
      const rule = await fetch('https://api.example.test/_sim/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ operationId: 'getTokenBalance', slowBody: { totalMs: 300 }, times: 1 }) });
      expect(rule.status).toBe(201);
      const started_ = performance.now();
      const res = await fetch('https://api.example.test/api/v1/tokens/balance', { headers: { Authorization: `Bearer ${key}` } });
      const body = await res.json();
      expect(performance.now() - started_).toBeGreaterThanOrEqual(280);
      expect(body).toEqual({ balance: 100, lifetimePurchased: 100, lifetimeUsed: 0 });
    } finally {
      server.close();
    }
  });
});
