import { describe, expect, it } from 'vitest';
import { AddressLimiter } from './address-limiter.js';
import { LruMap } from './lru-map.js';
import { WindowLimiter } from './window-limiter.js';

const T = 1_800_000_000_000; // on a minute boundary

describe('WindowLimiter', () => {
  it('counts per key in fixed minutes, and a new minute starts afresh', () => {
    const limiter = new WindowLimiter(2);
    expect(limiter.take('a', T)).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.take('a', T + 1)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take('a', T + 2_500)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 58, resetAt: T / 1000 + 60 });
    expect(limiter.take('b', T + 3)).toMatchObject({ allowed: true });
    expect(limiter.take('a', T + 60_000)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps a key of any size as a fixed-size digest, and at most maxKeys of them, forgetting the least recently seen', () => {
    const limiter = new WindowLimiter(1, 3);
    limiter.take('x'.repeat(1_000_000), T);
    for (const key of ['a', 'b', 'c']) limiter.take(key, T);
    expect(limiter.size).toBe(3);
    const windows = (limiter as unknown as { windows: Map<string, unknown> }).windows;
    expect([...windows.keys()].every((k) => k.length === 32)).toBe(true);
    // 'a' seen again: 'b' is now the least recent and goes when 'd' comes; 'a' keeps its count.
    expect(limiter.take('a', T).allowed).toBe(false);
    limiter.take('d', T);
    expect(limiter.take('a', T).allowed).toBe(false);
    expect(limiter.take('b', T).allowed).toBe(true);
  });

  it('a flood of new keys never clears the table: a busy key keeps its count', () => {
    const limiter = new WindowLimiter(1, 100);
    limiter.take('busy', T);
    for (let i = 0; i < 10_000; i++) {
      limiter.take(`junk-${i}`, T);
      if (i % 50 === 0) expect(limiter.take('busy', T).allowed).toBe(false);
    }
    expect(limiter.size).toBe(100);
  });
});

describe('AddressLimiter', () => {
  it('checks without counting, counts failures, and answers 429 RATE_LIMITED in the address bucket', () => {
    const limiter = new AddressLimiter(1);
    expect(limiter.check('203.0.113.1', T)).toEqual({ bucket: 'address', limit: 1, remaining: 1, resetAt: T / 1000 + 60 });
    expect(limiter.count('203.0.113.1', T)).toMatchObject({ remaining: 0 });
    expect(() => limiter.check('203.0.113.1', T + 1000)).toThrow(expect.objectContaining({ status: 429, code: 'RATE_LIMITED', headers: expect.objectContaining({ 'retry-after': '59' }) }));
    limiter.clear();
    expect(limiter.check('203.0.113.1', T).remaining).toBe(1);
  });
});

describe('LruMap', () => {
  it('forgets the least recently set or touched entry beyond its capacity, telling onEvict', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(2, (key) => evicted.push(key));
    map.set('a', 1).set('b', 2);
    map.touch('a');
    map.set('c', 3);
    expect([...map.keys()]).toEqual(['a', 'c']);
    map.set('a', 10);
    map.set('d', 4);
    expect([...map.entries()]).toEqual([['a', 10], ['d', 4]]);
    expect(evicted).toEqual(['b', 'c']);
  });
});
