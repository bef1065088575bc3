import { afterEach, describe, expect, it, vi } from 'vitest';
import { unlimitedCapacity } from '../limits/capacity.js';
import { contentCacheBytesFor, startMemoryGauge } from './memory-gauge.js';

const MiB = 1024 * 1024;
afterEach(() => vi.useRealTimers());

describe('the memory gauge', () => {
  it('fills the budget above --max-memory and frees it when memory falls again, sampling on a timer', () => {
    vi.useFakeTimers();
    let rss = 100 * MiB;
    const capacity = unlimitedCapacity();
    const stop = startMemoryGauge(capacity, 128, () => ({ rss, heapUsed: 10 * MiB, oldLimit: 1000 * MiB }));
    expect(capacity.exceeded).toBe(false);
    rss = 129 * MiB;
    expect(capacity.exceeded).toBe(false); // not sampled yet: a request never measures
    vi.advanceTimersByTime(250);
    expect(capacity).toEqual({ exceeded: true, usedMiB: 129, limitMiB: 128 });
    rss = 90 * MiB;
    vi.advanceTimersByTime(250);
    expect(capacity.exceeded).toBe(false);
    stop();
    rss = 500 * MiB;
    vi.advanceTimersByTime(1000);
    expect(capacity.exceeded).toBe(false);
  });

  it('goes on sampling when a sample throws (EMFILE once descriptors ran out), keeping the last verdict', () => {
    vi.useFakeTimers();
    let failing = false;
    let rss = 200 * MiB;
    const capacity = unlimitedCapacity();
    const stop = startMemoryGauge(capacity, 128, () => {
      if (failing) throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
      return { rss, heapUsed: 10 * MiB, oldLimit: 1000 * MiB };
    });
    expect(capacity.exceeded).toBe(true);
    failing = true;
    expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
    expect(capacity.exceeded).toBe(true);
    failing = false;
    rss = 90 * MiB;
    vi.advanceTimersByTime(250);
    expect(capacity.exceeded).toBe(false);
    stop();
  });

  it('samples fifty times a second once memory is past 70% of a budget, where a burst could cross it between two samples', () => {
    vi.useFakeTimers();
    let heapUsed = 20 * MiB;
    const capacity = unlimitedCapacity();
    const stop = startMemoryGauge(capacity, undefined, () => ({ rss: 90 * MiB, heapUsed, oldLimit: 100 * MiB }));
    heapUsed = 90 * MiB;
    vi.advanceTimersByTime(20);
    expect(capacity.exceeded).toBe(false); // far from the budget: the next sample is 250 ms away
    vi.advanceTimersByTime(230);
    expect(capacity.exceeded).toBe(true);
    heapUsed = 70 * MiB; // 82% of the 85 MiB budget: near
    vi.advanceTimersByTime(250);
    expect(capacity.exceeded).toBe(false);
    heapUsed = 86 * MiB;
    vi.advanceTimersByTime(20);
    expect(capacity.exceeded).toBe(true);
    stop();
  });

  it('fills past 85% of the old generation\'s limit, even without a budget, before V8 would abort', () => {
    const capacity = unlimitedCapacity();
    const stop = startMemoryGauge(capacity, undefined, () => ({ rss: 90 * MiB, heapUsed: 56 * MiB, oldLimit: 64 * MiB }));
    expect(capacity).toEqual({ exceeded: true, usedMiB: 56, limitMiB: 54 });
    stop();
    const roomy = unlimitedCapacity();
    startMemoryGauge(roomy, undefined, () => ({ rss: 90 * MiB, heapUsed: 50 * MiB, oldLimit: 64 * MiB }))();
    expect(roomy.exceeded).toBe(false);
  });

  it('keeps the content cache to an eighth of a small heap', () => {
    // --max-old-space-size=64: a heap limit of 112 MiB on Node 20 and 22, 256 MiB on Node 24.
    expect(contentCacheBytesFor(112 * MiB, '--max-old-space-size=64')).toBe(8 * MiB);
    expect(contentCacheBytesFor(256 * MiB, '--max-old-space-size=64')).toBe(8 * MiB);
    expect(contentCacheBytesFor(256 * MiB, '')).toBe(16 * MiB); // no flag: the larger reservation is assumed
    expect(contentCacheBytesFor(4144 * MiB, '')).toBe(32 * MiB);
  });
});
