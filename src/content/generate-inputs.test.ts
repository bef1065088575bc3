import { describe, expect, it } from 'vitest';
import { generateContent } from './generate.js';
import { sampleInput, SAMPLE_TARGET } from './sample-input.js';
import { CONTENT_KINDS, type LibraryItemSnapshot } from './types.js';

const LIBRARY: LibraryItemSnapshot[] = [
  { id: 'c1', type: 'cta', name: 'Audit CTA', content: 'Book a free bakery marketing audit', url: 'https://crumbandco.example/audit' },
  { id: 'p1', type: 'product_blurb', name: 'Starter Pack', content: 'The Crumb Starter Pack bundles a content calendar, photo tips and twelve caption templates.' },
  { id: 'g1', type: 'glossary_term', name: 'Reel', content: 'a short vertical video of up to ninety seconds' },
  { id: 'a1', type: 'brand_asset', name: 'Crumb logo pack', content: 'logos in light and dark versions', url: 'https://crumbandco.example/brand/logos.zip' },
];

describe('generateContent: library items', () => {
  it.each(CONTENT_KINDS)('%s: every named item shows up in the form that fits it', (kind) => {
    const out = generateContent(sampleInput({ kind, libraryItems: LIBRARY }));
    expect(out.markdown).toContain('[Book a free bakery marketing audit](https://crumbandco.example/audit)');
    expect(out.markdown).toContain(LIBRARY[1]!.content);
    expect(out.markdown).toContain('**Reel**: a short vertical video of up to ninety seconds');
    expect(out.markdown).toContain('[Crumb logo pack](https://crumbandco.example/brand/logos.zip)');
    expect(out.html).toContain('<a href="https://crumbandco.example/audit">Book a free bakery marketing audit</a>');
  });

  it('uses the library CTA as the main call to action of a web page and an email', () => {
    for (const kind of ['web_page', 'email'] as const) {
      const out = generateContent(sampleInput({ kind, libraryItems: LIBRARY }));
      expect(out.kindData.callToAction).toEqual({ label: LIBRARY[0]!.content, url: LIBRARY[0]!.url });
    }
  });

  it('never emits a javascript: link from a library item', () => {
    const evil: LibraryItemSnapshot = { id: 'x', type: 'cta', name: 'Evil', content: 'Click me', url: 'javascript:alert(1)' };
    for (const kind of CONTENT_KINDS) {
      const out = generateContent(sampleInput({ kind, libraryItems: [evil] }));
      expect(out.markdown).toContain('Click me');
      expect(out.markdown.toLowerCase()).not.toContain('javascript:');
      expect(out.html.toLowerCase()).not.toContain('javascript:');
      expect(JSON.stringify(out.kindData).toLowerCase()).not.toContain('javascript:');
    }
  });
});

describe('generateContent: hostile input', () => {
  const objective = '<script>alert(1)</script> & "x"';
  const target = structuredClone(SAMPLE_TARGET);
  target.name = 'Evil <b>Corp</b>';
  target.description = 'We <i>inject</i> things & more';

  it.each(CONTENT_KINDS)('%s: escapes user text in HTML and neutralises it in Markdown', (kind) => {
    const out = generateContent(
      sampleInput({
        kind,
        objective,
        target,
        generateImages: true,
        pressRelease: { quotes: [{ speaker: 'Mallory <img src=x onerror=alert(1)>', text: '"</blockquote><script>x</script>"', mode: 'verbatim' }] },
      }),
    );
    expect(out.html).not.toMatch(/<script|<b>|<i>|<img src=x|onerror=alert\(1\)>/);
    expect(out.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;');
    expect(out.markdown).not.toMatch(/(^|[^\\])<(script|b|i|img)/);
    for (const image of out.images) {
      const svg = atob(image.url.split(',')[1]!);
      expect(svg).not.toMatch(/<script|<b>/);
    }
  });
});

describe('generateContent: suites', () => {
  it.each(['blog', 'how_to', 'press_release'] as const)('%s: each page of a suite is a distinct article', (kind) => {
    const pages = Array.from({ length: 5 }, (_, i) =>
      generateContent(sampleInput({ kind, pageIndex: i, pageCount: 5, deliverableId: `page-${i}` })),
    );
    expect(new Set(pages.map((p) => p.title)).size).toBe(5);
    expect(new Set(pages.map((p) => p.slug)).size).toBe(5);
    pages.forEach((page, i) => expect(page.markdown).toContain(`Part ${i + 1} of 5`));
  });

  it('keeps titles distinct even beyond the number of angles', () => {
    const titles = Array.from({ length: 15 }, (_, i) =>
      generateContent(sampleInput({ kind: 'email', pageIndex: i, pageCount: 15, deliverableId: `p-${i}` })).title,
    );
    expect(new Set(titles).size).toBe(15);
  });

  it('does not mark a single page as part of a series', () => {
    expect(generateContent(sampleInput()).markdown).not.toContain('Part 1 of');
  });
});

describe('generateContent: quality mode and tone', () => {
  it('writes longer articles in premium mode', () => {
    for (const kind of ['blog', 'how_to', 'doc', 'news'] as const) {
      const standard = generateContent(sampleInput({ kind }));
      const premium = generateContent(sampleInput({ kind, qualityMode: 'premium' }));
      expect(premium.wordCount).toBeGreaterThan(standard.wordCount);
    }
  });

  it('changes the phrasing with the brand tone', () => {
    const withTone = (tone: string): string => {
      const target = structuredClone(SAMPLE_TARGET);
      target.brandKit.tone = tone;
      return generateContent(sampleInput({ target })).markdown;
    };
    const playful = withTone('playful and cheeky');
    const formal = withTone('formal');
    expect(playful).not.toBe(formal);
    expect(playful.split('\n## ').at(-2)).toMatch(/^(Wrapping it up|The TL;DR|That’s a wrap)/);
    expect(formal.split('\n## ').at(-2)).toMatch(/^(Conclusion|Summary and next steps|Recommendations)/);
  });
});
