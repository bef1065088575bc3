/** CORS of the service API: preflights allow what the front end asks for; answers expose what clients read; /_sim has none. */
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../src/index.js';
import { EXPOSED_HEADERS } from '../src/engine/cors.js';
import { assertContract } from './support/contract.js';

const simulator = createSimulator({ frozenAt: Date.parse('2026-03-02T09:00:00.000Z') });
const origin = 'https://app.example.com';
const preflight = (url: string, requested?: string) =>
  simulator.handle({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'POST', ...(requested === undefined ? {} : { 'access-control-request-headers': requested }) } });
const listed = (value: string | undefined) => (value ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);

describe('a preflight of the service API', () => {
  it('allows the headers the browser asks for: tracing and request ids included', () => {
    const reply = preflight('/api/v1/builds', 'authorization, content-type, idempotency-key, x-request-id, sentry-trace, baggage, traceparent');
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(listed(reply.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'x-request-id', 'sentry-trace', 'baggage', 'traceparent']));
    expect(reply.headers.vary).toContain('Access-Control-Request-Headers');
  });

  it('allows the API\'s own headers when none are asked for, and never echoes a malformed list', () => {
    expect(listed(preflight('/api/v1/builds').headers['access-control-allow-headers'])).toEqual(['authorization', 'content-type', 'idempotency-key']);
    for (const bad of ['x-a\r\nset-cookie: a=b', 'x-a, (b)', 'x'.repeat(3000)]) {
      const reply = preflight('/api/v1/builds', bad);
      expect(reply.status).toBe(204);
      expect(listed(reply.headers['access-control-allow-headers'])).toEqual(['authorization', 'content-type', 'idempotency-key']);
    }
  });

  it('is refused on /_sim, which has no CORS at all, whatever is asked', () => {
    const reply = preflight('/_sim/clock/freeze', 'x-control-token, content-type');
    expect(reply.status).toBe(403);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    expect(reply.headers['access-control-allow-headers']).toBeUndefined();
  });
});

describe('answers of the service API', () => {
  it('expose every non-safelisted header a client reads, a 429\'s Retry-After included', () => {
    const key = simulator.keys.readWrite;
    const exposed = new Set(listed(EXPOSED_HEADERS.join(',')));
    const safelisted = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);
    const seen = new Set<string>();
    let retryAfter = false;
    // The default class allows 60 a minute: the 61st is a 429 with Retry-After.
    for (let i = 0; i < 61; i++) {
      const reply = simulator.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: `Bearer ${key}`, origin } });
      const body = typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body);
      assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: reply.status, headers: reply.headers, body });
      expect(listed(reply.headers['access-control-expose-headers'])).toEqual([...exposed]);
      for (const name of Object.keys(reply.headers)) seen.add(name.toLowerCase());
      if (reply.status === 429) retryAfter = reply.headers['retry-after'] !== undefined;
    }
    expect(retryAfter).toBe(true);
    const readable = [...seen].filter((h) => !h.startsWith('access-control-') && !safelisted.has(h) && h !== 'vary' && h !== 'date');
    expect(readable.filter((h) => !exposed.has(h))).toEqual([]);
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-correlation-id', 'retry-after']) expect(exposed).toContain(h);
  });
});
