import { describe, expect, it } from 'vitest';
import { RingIndex } from './ring-index.js';

describe('RingIndex', () => {
  it('gives each new key the next slot, finds it again, and hands the oldest slot to a key past the capacity', () => {
    const index = new RingIndex<string>(3);
    expect([index.slotOf('a'), index.slotOf('b'), index.slotOf('c')]).toEqual([-1, -2, -3]);
    expect([index.slotOf('a'), index.slotOf('b'), index.slotOf('c')]).toEqual([0, 1, 2]);
    // 'a' was the oldest: 'd' takes its slot, and 'a' is new again (taking the slot of 'b', now the oldest).
    expect(index.slotOf('d')).toBe(-1);
    expect(index.slotOf('d')).toBe(0);
    expect(index.slotOf('a')).toBe(-2);
    expect([index.slotOf('c'), index.slotOf('d'), index.slotOf('a')]).toEqual([2, 0, 1]);
  });

  it('keeps exactly the newest keys through many evictions, whatever their hashes clash on (strings and numbers)', () => {
    // Keys that share their first and last eight characters clash in the hash, and probe past each other.
    const clashing = (i: number) => `prefix00-${String(i).padStart(6, '0')}-suffix00`;
    for (const keyOf of [clashing, (i: number) => `k-${i}`, (i: number) => i * 1_048_576 + 101]) {
      const capacity = 16;
      const index = new RingIndex<string | number>(capacity);
      const slots = new Map<string | number, number>();
      for (let i = 0; i < 500; i++) {
        // A key seen before and still kept answers its slot; one never seen, or let go, takes the oldest's.
        const key = keyOf(i % 7 === 3 ? Math.max(0, i - 5) : i);
        const answer = index.slotOf(key);
        if (slots.has(key)) expect(answer).toBe(slots.get(key));
        else {
          expect(answer).toBeLessThan(0);
          for (const [kept, slot] of slots) if (slot === -1 - answer) slots.delete(kept);
          slots.set(key, -1 - answer);
        }
        expect(slots.size).toBeLessThanOrEqual(capacity);
        for (const [kept, slot] of slots) expect(index.slotOf(kept)).toBe(slot);
      }
    }
  });
});
