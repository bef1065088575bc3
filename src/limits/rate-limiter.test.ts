import { describe, expect, it } from 'vitest';
import { RateLimiter, WINDOW_MS } from './rate-limiter.js';

const T = 1_700_000_040_000 + 40_000; // 1_700_000_040_000 starts a window: T is 40 s into it

describe('RateLimiter', () => {
  it('admits the limit of a class per key, then refuses without consuming', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 10; i++) expect(limiter.take('k', 'u', 'build-create', T).allowed).toBe(true);
    const refused = limiter.take('k', 'u', 'build-create', T);
    expect(refused).toMatchObject({ allowed: false, state: { bucket: 'key-build-create', limit: 10, remaining: 0 } });
    // The refused call did not count against the user: 110 more default calls still fit.
    for (let i = 0; i < 60; i++) expect(limiter.take('k', 'u', 'default', T).allowed).toBe(true);
  });

  it('counts every key of a user against 120 a minute', () => {
    const limiter = new RateLimiter();
    for (const key of ['a', 'b']) for (let i = 0; i < 60; i++) expect(limiter.take(key, 'u', 'default', T).allowed).toBe(true);
    const refused = limiter.take('c', 'u', 'default', T);
    expect(refused).toMatchObject({ allowed: false, state: { bucket: 'user', limit: 120 } });
    expect(limiter.take('c', 'other-user', 'default', T).allowed).toBe(true);
  });

  it('reports the tightest bucket and a reset at the end of the fixed window', () => {
    const limiter = new RateLimiter();
    const d = limiter.take('k', 'u', 'default', T);
    expect(d.state).toEqual({ bucket: 'key', limit: 60, remaining: 59, resetAt: Math.ceil((T - (T % WINDOW_MS) + WINDOW_MS) / 1000) });
    expect(d.retryAfterSeconds).toBe(20);
  });

  it('opens a new window when the clock reaches the reset', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 20; i++) limiter.take('k', 'u', 'generation', T);
    expect(limiter.take('k', 'u', 'generation', T).allowed).toBe(false);
    expect(limiter.take('k', 'u', 'generation', T + 20_000).allowed).toBe(true);
  });

  it('keeps only the current window: the buckets of keys that stopped calling are gone once it passes', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 1000; i++) limiter.take(`key-${i}`, `account-${i}`, 'default', 5_000);
    expect(limiter.size).toBe(2000);
    const next = limiter.take('key-0', 'account-0', 'default', 5_000 + WINDOW_MS);
    expect(limiter.size).toBe(2);
    expect(next.state.remaining).toBe(59);
  });
});
