import { describe, expect, it } from 'vitest';
import type { GeneratedContent } from '../content/types.js';
import { ContentCache } from './content-cache.js';

const page = (chars: number): GeneratedContent => ({
  title: 't', slug: 's', summary: '', metaDescription: '', markdown: 'x'.repeat(chars), html: '', wordCount: 1,
  sources: [], claims: [], images: [], kindData: {},
});

describe('the content cache', () => {
  it('holds at most its byte budget, evicting the least recently read build', () => {
    const cache = new ContentCache(100_000);
    for (let i = 0; i < 10; i++) cache.set(`b${i}`, [page(20_000)]); // about 44 KB each
    expect(cache.heldBytes).toBeLessThanOrEqual(100_000);
    expect(cache.size).toBe(2);
    expect(cache.get('b9')).toBeDefined();
    cache.set('b10', [page(20_000)]);
    expect(cache.get('b8')).toBeUndefined(); // b9 was read last, so b8 went first
    expect(cache.get('b9')).toBeDefined();
  });

  it('keeps nothing larger than its whole budget, and forgets on clear', () => {
    const cache = new ContentCache(10_000);
    cache.set('huge', [page(100_000)]);
    expect(cache.size).toBe(0);
    cache.set('small', [page(100)]);
    expect(cache.get('small')).toBeDefined();
    cache.clear();
    expect(cache.heldBytes).toBe(0);
    expect(cache.get('small')).toBeUndefined();
  });

  it("keeps a completed build's answer with its content, or alone, counted in the budget", () => {
    const cache = new ContentCache(100_000);
    cache.setAnswer('b0', 'x'.repeat(500));
    cache.setAnswer('b0', 'x'.repeat(500));
    expect(cache.answer('b0')?.text).toHaveLength(500);
    expect(cache.get('b0')).toBeUndefined(); // an answer alone is no content
    // Its text two bytes a character, its 500 encoded bytes, and the entry with the encoded copy's buffer.
    expect(cache.heldBytes).toBe(1_900);
    cache.set('b0', [page(1_000)]);
    expect(cache.answer('b0')?.text).toHaveLength(500); // content added later keeps the answer
    const withBoth = cache.heldBytes;
    cache.setAnswer('b0', 'y'.repeat(10));
    expect(cache.answer('b0')?.text).toHaveLength(500);
    expect(cache.heldBytes).toBe(withBoth);
    for (let i = 1; i < 10; i++) cache.set(`b${i}`, [page(20_000)]);
    expect(cache.answer('b0')).toBeUndefined();
    expect(cache.heldBytes).toBeLessThanOrEqual(100_000);
    for (let i = 0; i < 1_000; i++) for (const _ of [1, 2]) cache.setAnswer(`a${i}`, 'z'.repeat(100));
    expect(cache.heldBytes).toBeLessThanOrEqual(100_000);
    expect(cache.answer('a999')).toBeDefined();
    expect(cache.answer('a0')).toBeUndefined();
  });

  it('keeps an answer alone from the second time it is offered, and at once beside cached content', () => {
    const cache = new ContentCache(100_000);
    // Read once: kept, it would only age into the old generation and die there.
    for (let i = 0; i < 100; i++) cache.setAnswer(`once${i}`, 'x'.repeat(100));
    expect(cache.size).toBe(0);
    expect(cache.heldBytes).toBe(0);
    // Asked for again (a poller): from then on it is served as written.
    cache.setAnswer('once7', 'x'.repeat(100));
    expect(cache.answer('once7')?.text).toHaveLength(100);
    expect(cache.size).toBe(1);
    // A build whose pages are cached keeps its answer with them the first time.
    cache.set('paged', [page(100)]);
    cache.setAnswer('paged', 'y'.repeat(50));
    expect(cache.answer('paged')?.text).toHaveLength(50);
    // Clearing forgets what was seen too.
    cache.setAnswer('again', 'z');
    cache.clear();
    cache.setAnswer('again', 'z');
    expect(cache.answer('again')).toBeUndefined();
  });
});
