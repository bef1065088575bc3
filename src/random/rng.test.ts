import { describe, expect, it } from 'vitest';
import { Rng, hash32 } from './rng.js';

describe('Rng', () => {
  it('gives the same sequence for the same seed parts and a different one otherwise', () => {
    const a = new Rng('seed', 'x');
    const b = new Rng('seed', 'x');
    const c = new Rng('seed', 'y');
    const seqA = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(seqA);
  });

  it('makes valid UUID v4 strings', () => {
    const rng = new Rng(1);
    for (let i = 0; i < 50; i++) {
      expect(rng.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('keeps int() within its inclusive bounds and reaches both ends', () => {
    const rng = new Rng('bounds');
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const v = rng.int(3, 6);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(6);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });

  it('samples distinct items', () => {
    const picked = new Rng('s').sample([1, 2, 3, 4, 5], 3);
    expect(new Set(picked).size).toBe(3);
  });

  it('hashes strings stably', () => {
    expect(hash32('abc')).toBe(hash32('abc'));
    expect(hash32('abc')).not.toBe(hash32('abd'));
  });
});
