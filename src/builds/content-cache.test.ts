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
    expect(cache.answer('b0')).toHaveLength(500);
    expect(cache.get('b0')).toBeUndefined(); // an answer alone is no content
    expect(cache.heldBytes).toBe(1_200);
    cache.set('b0', [page(1_000)]);
    expect(cache.answer('b0')).toHaveLength(500); // content added later keeps the answer
    const withBoth = cache.heldBytes;
    cache.setAnswer('b0', 'y'.repeat(10));
    expect(cache.answer('b0')).toHaveLength(500);
    expect(cache.heldBytes).toBe(withBoth);
    for (let i = 1; i < 10; i++) cache.set(`b${i}`, [page(20_000)]);
    expect(cache.answer('b0')).toBeUndefined();
    expect(cache.heldBytes).toBeLessThanOrEqual(100_000);
    for (let i = 0; i < 1_000; i++) cache.setAnswer(`a${i}`, 'z'.repeat(100));
    expect(cache.heldBytes).toBeLessThanOrEqual(100_000);
    expect(cache.answer('a999')).toBeDefined();
    expect(cache.answer('a0')).toBeUndefined();
  });
});
