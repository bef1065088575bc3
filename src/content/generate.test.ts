import { describe, expect, it } from 'vitest';
import { generateContent } from './generate.js';
import { sampleInput, SAMPLE_TARGET } from './sample-input.js';
import { CONTENT_KINDS, type ContentInput, type GeneratedContent } from './types.js';
import { markupProblems } from '../../test/support/markup.js';



/** Words of the Markdown as a reader sees them: no link targets, images or syntax. */
function naiveWordCount(md: string): number {
  const text = md
    .replace(/^# .*$/m, '')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\]\([^)]*\)/g, ']');
  return text.split(/\s+/).filter((w) => /[A-Za-z0-9\u00c0-\u1fff\u2c00-\uffff]/.test(w)).length;
}

/** The paragraph that opens the article (after an email's preheader and greeting). */
function leadParagraph(out: GeneratedContent, kind: string): string {
  const paragraphs = out.markdown.split('\n\n').filter((p) => !p.startsWith('#') && !p.startsWith('!['));
  return (kind === 'email' ? paragraphs[2] : paragraphs[0]) ?? '';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('generateContent: determinism', () => {
  it.each(CONTENT_KINDS)('%s: the same input gives byte-identical output', (kind) => {
    const input = sampleInput({ kind, generateImages: true });
    expect(JSON.stringify(generateContent(input))).toBe(JSON.stringify(generateContent(structuredClone(input))));
  });

  it.each(CONTENT_KINDS)('%s: another deliverable id gives different content', (kind) => {
    const a = generateContent(sampleInput({ kind }));
    const b = generateContent(sampleInput({ kind, deliverableId: 'a-different-deliverable' }));
    expect(b.markdown).not.toBe(a.markdown);
    expect(b.sources.map((s) => s.id)).not.toEqual(a.sources.map((s) => s.id));
  });
});

describe.each(CONTENT_KINDS)('generateContent(%s): shared structure', (kind) => {
  const input = sampleInput({ kind });
  const out = generateContent(input);

  it('has a title, a URL slug and a Markdown article that starts with it', () => {
    expect(out.title.length).toBeGreaterThan(5);
    expect(out.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(out.slug.length).toBeLessThanOrEqual(80);
    expect(out.markdown.startsWith(`# ${out.title}\n\n`)).toBe(true);
  });

  it('renders a well-formed HTML document with the title and meta description', () => {
    expect(markupProblems(out.html)).toEqual([]);
    expect(out.html).toContain('<html lang="en">');
    expect(out.html).toContain('<meta charset="utf-8" />');
    expect(out.html).toContain(`<title>${out.title.replace(/&/g, '&amp;')}</title>`);
    expect(out.html).toContain(`<meta name="description" content="${out.metaDescription.replace(/&/g, '&amp;')}" />`);
    expect(out.html).toMatch(/<body><article>[\s\S]*<\/article><\/body><\/html>\n$/);
  });

  it('counts the words of the body', () => {
    const naive = naiveWordCount(out.markdown);
    expect(out.wordCount).toBeGreaterThan(80);
    expect(Math.abs(out.wordCount - naive) / naive).toBeLessThan(0.1);
  });

  it('states every claim in the body and cites only existing sources', () => {
    const ids = new Set(out.sources.map((s) => s.id));
    expect(out.claims.length).toBeGreaterThanOrEqual(3);
    expect(out.claims.length).toBeLessThanOrEqual(8);
    for (const claim of out.claims) {
      expect(claim.id).toMatch(UUID);
      expect(out.markdown).toContain(claim.text);
      for (const id of claim.sourceIds) expect(ids.has(id)).toBe(true);
      expect(Math.round(claim.confidence * 100) / 100).toBe(claim.confidence);
      if (claim.verdict === 'supported') {
        expect(claim.sourceIds.length).toBeGreaterThanOrEqual(1);
        expect(claim.sourceIds.length).toBeLessThanOrEqual(3);
        expect(claim.confidence).toBeGreaterThanOrEqual(0.7);
      } else if (claim.verdict === 'weak') {
        expect(claim.sourceIds).toHaveLength(1);
        expect(claim.confidence).toBeGreaterThanOrEqual(0.4);
        expect(claim.confidence).toBeLessThan(0.7);
      } else {
        expect(claim.sourceIds).toEqual([]);
        expect(claim.confidence).toBeLessThan(0.4);
      }
    }
  });

  it('lists 4 to 7 plausible sources, retrieved shortly before completion', () => {
    expect(out.sources.length).toBeGreaterThanOrEqual(4);
    expect(out.sources.length).toBeLessThanOrEqual(7);
    const completed = Date.parse(input.completedAt);
    for (const source of out.sources) {
      expect(source.id).toMatch(UUID);
      expect(source.url).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\/[a-z0-9/-]+$/);
      expect(source.title.length).toBeGreaterThan(5);
      expect(source.publisher.length).toBeGreaterThan(3);
      expect(source.retrievedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
      const age = completed - Date.parse(source.retrievedAt);
      expect(age).toBeGreaterThan(60_000);
      expect(age).toBeLessThan(6 * 3600_000);
    }
    expect(new Set(out.sources.map((s) => s.id)).size).toBe(out.sources.length);
  });

  it('ends with the numbered sources (before "###" in a press release)', () => {
    const list = out.sources.map((s, i) => `${i + 1}. [${s.title}](${s.url})`);
    const at = out.markdown.indexOf('\n## Sources\n');
    expect(at).toBeGreaterThan(0);
    const tail = out.markdown.slice(at);
    for (const line of list) expect(tail).toContain(line);
    if (kind === 'press_release') expect(tail.trimEnd().endsWith('\n\n###')).toBe(true);
    else expect(tail.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^${out.sources.length}\\. \\[`));
  });

  it('puts the SEO keywords where they count and keeps the meta description short', () => {
    const primary = SAMPLE_TARGET.brandKit.seo.primaryKeywords[0]!;
    const inTitleOrLead = `${out.title}\n${leadParagraph(out, kind)}`.toLowerCase();
    expect(inTitleOrLead).toContain(primary);
    expect(out.metaDescription.toLowerCase()).toContain(primary);
    expect(out.metaDescription.length).toBeLessThanOrEqual(155);
    for (const secondary of SAMPLE_TARGET.brandKit.seo.secondaryKeywords) expect(out.markdown).toContain(secondary);
  });

  it('weaves the objective into the title and body', () => {
    expect(out.title.toLowerCase()).toContain('instagram');
    const body = out.markdown.slice(out.markdown.indexOf('\n'));
    expect(body).toContain('Instagram');
    expect(body).toContain('small bakeries');
  });

  it('has no images unless asked (except the image kind)', () => {
    if (kind === 'image') expect(out.images.length).toBeGreaterThan(0);
    else expect(out.images).toEqual([]);
  });
});

describe('generateContent: research policy and mode', () => {
  const counts = (overrides: Partial<ContentInput>): number[] =>
    Array.from({ length: 25 }, (_, i) => generateContent(sampleInput({ ...overrides, deliverableId: `d-${i}` })).sources.length);

  it('has no sources with research "none", and every claim is unsupported', () => {
    const out = generateContent(sampleInput({ researchPolicy: 'none' }));
    expect(out.sources).toEqual([]);
    expect(out.markdown).not.toContain('## Sources');
    expect(out.claims.length).toBeGreaterThanOrEqual(3);
    for (const claim of out.claims) {
      expect(claim.verdict).toBe('unsupported');
      expect(claim.sourceIds).toEqual([]);
      expect(claim.confidence).toBeLessThan(0.4);
    }
  });

  it('has 2-4 sources when optional, 4-7 when required, 8-12 in deep mode', () => {
    const optional = counts({ researchPolicy: 'optional' });
    const required = counts({ researchPolicy: 'required' });
    const deep = counts({ researchPolicy: 'required', researchMode: 'deep' });
    expect(Math.min(...optional)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...optional)).toBeLessThanOrEqual(4);
    expect(Math.min(...required)).toBeGreaterThanOrEqual(4);
    expect(Math.max(...required)).toBeLessThanOrEqual(7);
    expect(Math.min(...deep)).toBeGreaterThanOrEqual(8);
    expect(Math.max(...deep)).toBeLessThanOrEqual(12);
  });

  it('makes most claims supported', () => {
    const verdicts = Array.from({ length: 20 }, (_, i) => generateContent(sampleInput({ deliverableId: `v-${i}` })).claims).flat();
    const supported = verdicts.filter((c) => c.verdict === 'supported').length;
    expect(supported / verdicts.length).toBeGreaterThan(0.6);
  });
});

describe('generateContent: images', () => {
  it.each(CONTENT_KINDS.filter((k) => k !== 'image'))('%s: adds 1-2 embedded SVG images when asked', (kind) => {
    const out = generateContent(sampleInput({ kind, generateImages: true }));
    expect(out.images.length).toBeGreaterThanOrEqual(1);
    expect(out.images.length).toBeLessThanOrEqual(2);
    for (const image of out.images) {
      expect(image.url).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
      const svg = atob(image.url.slice('data:image/svg+xml;base64,'.length));
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<\/svg>$/);
      expect(svg).toContain(`width="${image.width}"`);
      expect(out.markdown).toContain(`](${image.url})`);
      expect(out.html).toContain(`src="${image.url}"`);
    }
    // The lead paragraph still opens the article.
    expect(out.markdown.split('\n\n')[1]!.startsWith('![')).toBe(false);
  });
});

describe('generateContent: SEO limits', () => {
  it('keeps a tight meta description limit and still leads with the primary keywords', () => {
    const target = structuredClone(SAMPLE_TARGET);
    target.brandKit.seo = { primaryKeywords: ['sourdough', 'bakery marketing'], secondaryKeywords: [], metaDescriptionMaxLength: 60 };
    for (const kind of CONTENT_KINDS) {
      const out = generateContent(sampleInput({ kind, target }));
      expect(out.metaDescription.length).toBeLessThanOrEqual(60);
      expect(out.metaDescription.toLowerCase()).toContain('sourdough');
      expect(out.metaDescription.toLowerCase()).toContain('bakery marketing');
      expect(`${out.title} ${leadParagraph(out, kind)}`.toLowerCase()).toContain('sourdough');
    }
  });
});
