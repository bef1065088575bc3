import { describe, expect, it } from 'vitest';
import { growingPercent, HeapGrowth, LARGE_HEAP, MAX_PERCENT, MIN_PERCENT, SMALL_AGAIN } from './heap-growth.js';
import { startMemoryGauge } from './memory-gauge.js';

const MiB = 1024 * 1024;

describe("the CLI's heap growing policy", () => {
  it('gives a large heap less room the larger it is, within bounds', () => {
    expect(growingPercent(LARGE_HEAP + 1)).toBe(95);
    expect(growingPercent(64 * MiB)).toBe(MAX_PERCENT);
    expect(growingPercent(512 * MiB)).toBe(25);
    expect(growingPercent(1024 * MiB)).toBe(10);
    expect(growingPercent(8192 * MiB)).toBe(MIN_PERCENT);
  });

  it('bounds the growth past a large heap, and gives V8 its own back when the heap is small again', () => {
    const flags: string[] = [];
    const growth = new HeapGrowth((f) => flags.push(f), '');
    growth.update(50 * MiB);
    expect(flags).toEqual([]); // small heaps keep V8's own growing
    growth.update(512 * MiB);
    growth.update(508 * MiB); // the same step: no flag set again
    expect(flags).toEqual(['--heap-growing-percent=25']);
    growth.update(800 * MiB);
    expect(growth.growingPercent).toBe(15);
    growth.update(SMALL_AGAIN + MiB); // between the two lines: still large
    expect(growth.growingPercent).toBe(100);
    growth.update(SMALL_AGAIN - 1);
    expect(flags).toEqual(['--heap-growing-percent=25', '--heap-growing-percent=15', '--heap-growing-percent=100', '--heap-growing-percent=0']);
    expect(growth.growingPercent).toBe(0);
  });

  it('leaves a growing percent given in the node flags or NODE_OPTIONS alone', () => {
    for (const given of ['--heap-growing-percent=80', '--max-old-space-size=512 --heap_growing_percent=10']) {
      const flags: string[] = [];
      const growth = new HeapGrowth((f) => flags.push(f), given);
      growth.update(LARGE_HEAP * 4);
      expect(flags).toEqual([]);
      expect(growth.growingPercent).toBe(0);
    }
  });

  it('is fed by each sample of the memory gauge', () => {
    const flags: string[] = [];
    const growth = new HeapGrowth((f) => flags.push(f), '');
    const capacity = { exceeded: false, usedMiB: 0, limitMiB: 0 };
    const stop = startMemoryGauge(capacity, undefined, () => ({ rss: 600 * MiB, heapUsed: 512 * MiB, oldLimit: 4096 * MiB }), growth);
    stop();
    expect(flags).toEqual(['--heap-growing-percent=25']);
    expect(capacity.exceeded).toBe(false);
  });
});
