import { createServer, request, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import { FAILED_AUTH_LIMIT, SHARE_VIEW_LIMIT } from '../../src/limits/address-limiter.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { harness, T0 } from '../support/harness.js';

const WRONG_KEY = `svc_live_${'0'.repeat(40)}`;

const ATTACKER = '203.0.113.7';

/** An in-process call as if from a client at `remoteAddress`, validated against the contract. */
function caller(sim: Simulator, remoteAddress: string | undefined) {
  return (url: string, key: string | null) => {
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    const reply = sim.handle({ method: 'GET', url, headers, ...(remoteAddress ? { remoteAddress } : {}) });
    const body = typeof reply.body === 'string' ? reply.body : '';
    assertContract({ method: 'GET', url, status: reply.status, headers: reply.headers, body });
    return { status: reply.status, headers: reply.headers, body: body ? JSON.parse(body) : undefined };
  };
}

describe('guessing is slowed down per client address', () => {
  it(`refuses an address after ${FAILED_AUTH_LIMIT} failed authentications a minute, valid key or not, until the window ends`, () => {
    const sim = createSimulator({ frozenAt: T0 });
    const get = caller(sim, ATTACKER);
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) {
      const failed = get('/api/v1/tokens/balance', WRONG_KEY);
      expect(failed.status).toBe(401);
      expect(failed.headers['x-ratelimit-remaining']).toBe(String(FAILED_AUTH_LIMIT - i - 1));
    }
    const blocked = get('/api/v1/tokens/balance', WRONG_KEY);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'address', limit: FAILED_AUTH_LIMIT } });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // A right guess now is told nothing either: the address waits like any other guesser.
    expect(get('/api/v1/tokens/balance', sim.keys.readWrite).status).toBe(429);
    expect(get('/api/v1/tokens/balance', null).status).toBe(429);
    sim.clock.advance(60_000);
    expect(get('/api/v1/tokens/balance', sim.keys.readWrite).status).toBe(200);
  });

  it('never counts successful calls, nor failures of in-process (msw, MCP) or loopback callers', async () => {
    const sim = createSimulator({ frozenAt: T0 });
    const attacker = caller(sim, ATTACKER);
    for (let i = 0; i < FAILED_AUTH_LIMIT * 2; i++) expect(attacker('/api/v1/tokens/balance', sim.keys.readWrite).status).toBe(200);
    for (const local of [caller(sim, undefined), caller(sim, '127.0.0.1'), caller(sim, '::1'), caller(sim, '::ffff:127.0.0.1')]) {
      for (let i = 0; i < FAILED_AUTH_LIMIT * 2; i++) expect(local('/api/v1/tokens/balance', WRONG_KEY).status).toBe(401);
    }
    // Over a real socket from loopback, too (a local contract run checks 401s by the hundred).
    const h = harness();
    for (let i = 0; i < FAILED_AUTH_LIMIT + 5; i++) expect((await h.get('/api/v1/tokens/balance', { key: WRONG_KEY })).status).toBe(401);
  });

  it('keeps addresses apart', () => {
    const sim = createSimulator({ frozenAt: T0 });
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) caller(sim, ATTACKER)('/api/v1/tokens/balance', WRONG_KEY);
    expect(caller(sim, ATTACKER)('/api/v1/tokens/balance', sim.keys.readWrite).status).toBe(429);
    expect(caller(sim, '203.0.113.8')('/api/v1/tokens/balance', sim.keys.readWrite).status).toBe(200);
  });

  it(`limits the public share view to ${SHARE_VIEW_LIMIT} a minute per address, with the usual headers`, () => {
    const sim = createSimulator({ frozenAt: T0 });
    const get = caller(sim, ATTACKER);
    for (let i = 0; i < SHARE_VIEW_LIMIT; i++) {
      const miss = get(`/api/v1/shared/${'f'.repeat(32)}${i}`, null);
      expect(miss.status).toBe(404);
      expect(miss.headers['x-ratelimit-limit']).toBe(String(SHARE_VIEW_LIMIT));
      expect(miss.headers['x-ratelimit-remaining']).toBe(String(SHARE_VIEW_LIMIT - i - 1));
    }
    const blocked = get(`/api/v1/shared/${'f'.repeat(32)}`, null);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ details: { bucket: 'address', limit: SHARE_VIEW_LIMIT } });
    expect(caller(sim, '203.0.113.8')(`/api/v1/shared/${'f'.repeat(32)}`, null).status).toBe(404);
    sim.clock.advance(60_000);
    expect(get(`/api/v1/shared/${'f'.repeat(32)}`, null).status).toBe(404);
  });
});

describe('two Authorization headers', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('are a 400, not silently resolved to the first', async () => {
    const simulator = createSimulator({ frozenAt: T0 });
    server = createServer(createExpressApp(simulator));
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const send = (authorization: string | string[]) =>
      new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/api/v1/tokens/balance', headers: { authorization } as OutgoingHttpHeaders }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const twice = await send([`Bearer ${simulator.keys.readWrite}`, `Bearer ${WRONG_KEY}`]);
    assertContract({ method: 'GET', url: '/api/v1/tokens/balance', ...twice });
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body)).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'header.Authorization' }] } });
    const once = await send(`Bearer ${simulator.keys.readWrite}`);
    expect(once.status).toBe(200);
  });

  it('joined by a fetch client (msw) are refused the same way', () => {
    const sim = createSimulator({ frozenAt: T0 });
    const r = sim.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: `Bearer ${sim.keys.readWrite}, Bearer ${WRONG_KEY}` } });
    expect(r.status).toBe(400);
  });
});
