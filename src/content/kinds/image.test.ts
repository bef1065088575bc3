import { describe, expect, it } from 'vitest';
import { generateContent } from '../generate.js';
import { sampleInput } from '../sample-input.js';

describe('image', () => {
  it('always delivers images, even when generateImages is false, and embeds each with its caption', () => {
    for (const generateImages of [false, true]) {
      const out = generateContent(sampleInput({ kind: 'image', generateImages }));
      expect(out.images.length).toBeGreaterThanOrEqual(2);
      const data = out.kindData.images as Array<{ id: string; caption: string }>;
      expect(data.map((d) => d.id)).toEqual(out.images.map((i) => i.id));
      out.images.forEach((image, i) => {
        expect(out.markdown).toContain(`![${image.alt}](${image.url})\n\n*${data[i]!.caption}*`);
        expect(out.html).toContain(`<img src="${image.url}"`);
      });
    }
  });

  it('builds small valid SVGs whose sizes match the image records', () => {
    const out = generateContent(sampleInput({ kind: 'image', qualityMode: 'premium' }));
    expect(out.images.length).toBeGreaterThanOrEqual(3);
    for (const image of out.images) {
      const svg = atob(image.url.replace('data:image/svg+xml;base64,', ''));
      expect(svg).toMatch(new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}"`));
      expect(svg.endsWith('</svg>')).toBe(true);
      expect(svg.length).toBeLessThan(3000);
      expect(/^[\x20-\x7e]*$/.test(svg)).toBe(true);
      // every opened element is closed: count of "<x" (not "</") equals self-closed plus closing tags
      const opened = (svg.match(/<[a-zA-Z]/g) ?? []).length;
      const closed = (svg.match(/\/>/g) ?? []).length + (svg.match(/<\//g) ?? []).length;
      expect(closed).toBe(opened);
    }
  });

  it('keeps one palette per target across deliverables', () => {
    const colours = (id: string): string[] => {
      const svg = atob(generateContent(sampleInput({ kind: 'image', deliverableId: id })).images[0]!.url.split(',')[1]!);
      return [...svg.matchAll(/stop-color="(#[0-9a-f]{6})"/g)].map((m) => m[1]!);
    };
    expect(colours('one')).toEqual(colours('two'));
  });
});
