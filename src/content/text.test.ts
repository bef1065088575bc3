import { describe, expect, it } from 'vitest';
import { charLength, countWordsIn, fitText, slugify, titleCase } from './text.js';

describe('text helpers', () => {
  it('slugify keeps a-z0-9 and single hyphens, drops accents, caps at 80', () => {
    expect(slugify('Crème Brûlée: 10 Tips & Tricks!')).toBe('creme-brulee-10-tips-tricks');
    expect(slugify('<script>alert(1)</script>')).toBe('script-alert-1-script');
    const long = slugify('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(slugify('!!!')).toBe('content');
  });

  it('titleCase keeps small words low and existing capitals', () => {
    expect(titleCase('the future of e-commerce for small teams')).toBe('The Future of E-Commerce for Small Teams');
    expect(titleCase('using SEO in an iPhone world')).toBe('Using SEO in an IPhone World');
  });

  it('fitText cuts at a word boundary with an ellipsis', () => {
    expect(fitText('short', 10)).toBe('short');
    const cut = fitText('one two three four five six', 15);
    expect(cut).toBe('one two three\u2026');
    expect(cut.length).toBeLessThanOrEqual(15);
  });

  it('counts code points and words', () => {
    expect(charLength('a\u{1F950}b')).toBe(3);
    expect(countWordsIn('Hello, world \u2014 42 times!')).toBe(4);
  });
});
