import { describe, expect, it } from 'vitest';
import { harness, T0 } from './support/harness.js';

const windowReset = Math.ceil((T0 - (T0 % 60_000) + 60_000) / 1000);

describe('rate limits (spec, Limits)', () => {
  it('allows 60 calls a minute per key, then 429 with Retry-After; a new window resets it', async () => {
    const h = harness();
    for (let i = 1; i <= 60; i++) {
      const res = await h.get('/api/v1/tokens/balance');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
      expect(res.headers['x-ratelimit-reset']).toBe(String(windowReset));
    }
    const limited = await h.get('/api/v1/tokens/balance');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'key', limit: 60 } });
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBe(windowReset - Math.floor(T0 / 1000));
    h.advance(Number(limited.headers['retry-after']) * 1000);
    const again = await h.get('/api/v1/tokens/balance');
    expect(again.status).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('allows 10 build creations a minute per key', async () => {
    const h = harness();
    const targetId = await h.target();
    for (let i = 0; i < 10; i++) {
      const res = await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: `n${i}` });
      expect(res.status).toBe(202);
      expect(res.headers['x-ratelimit-limit']).toBe('10');
    }
    const limited = await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'one too many' });
    expect(limited.status).toBe(429);
    expect(limited.body.details.bucket).toBe('key-build-create');
    // Other routes of the same key are not affected.
    expect((await h.get('/api/v1/builds')).status).toBe(200);
    // The refused build was not charged.
    expect((await h.get('/api/v1/tokens/balance')).body.balance).toBe(90);
  });

  it('counts all keys of a user together against 120 a minute', async () => {
    const h = harness();
    for (const key of [h.keys.readWrite, h.keys.readOnly]) {
      for (let i = 0; i < 60; i++) expect((await h.get('/api/v1/tokens/balance', { key })).status).toBe(200);
    }
    // The write-only key has its own 60 left, but the user has none.
    const res = await h.get('/api/v1/tokens/balance', { key: h.keys.writeOnly });
    expect(res.status).toBe(429);
    expect(res.body.details).toMatchObject({ bucket: 'user', limit: 120 });
    expect(res.headers['x-ratelimit-limit']).toBe('120');
  });

  it('reports the user bucket when it is tighter than the key bucket', async () => {
    const h = harness();
    for (let i = 0; i < 59; i++) await h.get('/api/v1/tokens/balance', { key: h.keys.readOnly });
    for (let i = 0; i < 59; i++) await h.get('/api/v1/tokens/balance', { key: h.keys.readWrite });
    const res = await h.get('/api/v1/builds', { key: h.keys.writeOnly });
    expect(res.status).toBe(403);
    expect(res.headers['x-ratelimit-limit']).toBe('120');
    expect(res.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('sends the three headers on errors too, including 401 and 404', async () => {
    const h = harness();
    for (const res of [await h.get('/api/v1/tokens/balance', { key: null }), await h.get('/api/v1/nothing-here'), await h.get('/elsewhere')]) {
      expect(res.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
      expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers['x-ratelimit-reset']).toBe(String(windowReset));
    }
  });
});

describe('Date follows the virtual clock', () => {
  it('agrees with X-RateLimit-Reset after the clock has moved', async () => {
    const h = harness();
    h.advance(3 * 24 * 60 * 60 * 1000);
    const res = await h.get('/api/v1/tokens/balance');
    const serverNow = Date.parse(res.headers.date!) / 1000;
    expect(serverNow).toBe(Math.floor((T0 + 3 * 24 * 60 * 60 * 1000) / 1000));
    const untilReset = Number(res.headers['x-ratelimit-reset']) - serverNow;
    expect(untilReset).toBeGreaterThan(0);
    expect(untilReset).toBeLessThanOrEqual(60);
  });
});
