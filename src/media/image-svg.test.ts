import { describe, expect, it } from 'vitest';
import {
  IMAGE_MOODS, IMAGE_SIZES, IMAGE_STYLES, type ImageSvgInput, LOGO_POSITIONS, renderImageSvg, svgToDataUrl,
} from './image-svg.js';
import { MOOD_PALETTES, luminance } from './palette.js';
import { markupProblems } from '../../test/support/markup.js';

const base: ImageSvgInput = {
  seed: 'seed-1', id: 'img-1', prompt: 'A lighthouse at dawn', style: 'photo', mood: 'calm', colors: [], size: '1024x1024',
};
const render = (over: Partial<ImageSvgInput> = {}): string => renderImageSvg({ ...base, ...over });


const artOf = (svg: string): string => /<g class="art[^"]*">[\s\S]*?<\/g>\n(?:<g class="logo"|<\/svg>)/.exec(svg)?.[0] ?? '';
const withoutText = (svg: string): string => svg.replace(/<title[\s\S]*?<\/desc>/, '');
const SHAPE_TAG = /<(rect|circle|ellipse|path|polygon|polyline|line)\b[^>]*>/g;

describe('renderImageSvg', () => {
  it('is deterministic and depends on the id', () => {
    expect(render()).toBe(render());
    expect(render({ id: 'img-2' })).not.toBe(render());
  });

  it('is well-formed XML for every style and mood', () => {
    for (const style of IMAGE_STYLES) {
      for (const mood of IMAGE_MOODS) {
        const svg = render({ style, mood, prompt: 'Tom & Jerry <b>"x"</b>\u0001', logo: { text: "O'Neil & Co", position: 'top-right' } });
        expect(markupProblems(svg), `${style}/${mood}`).toEqual([]);
        expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      }
    }
  });

  it('the checker catches broken markup', () => {
    expect(markupProblems('<svg><g></svg>')).not.toEqual([]);
    expect(markupProblems('<svg>a & b</svg>')).not.toEqual([]);
    expect(markupProblems('<svg x="1" x="2"/>')).not.toEqual([]);
  });

  it('sets width, height and viewBox from the size', () => {
    for (const size of IMAGE_SIZES) {
      const [w, h] = size.split('x');
      expect(render({ size })).toContain(`width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"`);
    }
  });

  it('draws every given color, in every style', () => {
    const colors = ['#123456', '#abcdef', '#FF8800', '#00aa44', '#7700cc'];
    for (const style of IMAGE_STYLES) {
      for (const n of [1, 3, 5]) {
        const svg = withoutText(render({ style, mood: 'energetic', colors: colors.slice(0, n) }));
        for (const c of colors.slice(0, n)) expect(svg, `${style} ${c}`).toContain(c);
      }
    }
  });

  it('falls back to the mood palette without colors', () => {
    for (const mood of IMAGE_MOODS) {
      const svg = withoutText(render({ mood, style: 'flat' }));
      for (const c of MOOD_PALETTES[mood]) expect(svg, `${mood} ${c}`).toContain(c);
    }
  });

  it('line_art fills nothing but the background', () => {
    for (const mood of IMAGE_MOODS) {
      const svg = render({ style: 'line_art', mood, colors: ['#224466', '#cc3300'] });
      const shapes = [...svg.matchAll(SHAPE_TAG)].map((m) => m[0]);
      const filled = shapes.filter((s) => !s.includes('fill="none"'));
      expect(filled, mood).toHaveLength(1);
      expect(filled[0]).toContain('class="bg"');
      expect(shapes.length).toBeGreaterThan(5);
      expect(svg).not.toContain('<filter');
    }
  });

  it('paints each style with its own technique', () => {
    const flat = render({ style: 'flat', mood: 'playful' });
    expect(flat).not.toMatch(/Gradient|<filter/);
    const watercolor = render({ style: 'watercolor' });
    expect(watercolor).toContain('<feGaussianBlur');
    expect(watercolor).toMatch(/fill-opacity="0\.\d+" filter="url\(#img\w+-wash\)"/);
    expect(render({ style: 'photo' })).toMatch(/<linearGradient[\s\S]*<radialGradient[\s\S]*<feGaussianBlur/);
    const solid = render({ style: '3d', mood: 'playful' });
    expect(solid).toMatch(/<radialGradient id="img\w+-sph-0"[^>]* fx="0\.32"/);
    expect(solid).toContain('-face-');
    expect(render({ style: 'illustration' })).toMatch(/stroke="#[0-9a-f]{6}" stroke-width/);
  });

  it('lets the mood set energy and contrast', () => {
    const count = (svg: string, tag: string): number => artOf(svg).split(`<${tag} `).length - 1;
    const energetic = render({ style: 'flat', mood: 'energetic' });
    const calm = render({ style: 'flat', mood: 'calm' });
    expect(count(energetic, 'polygon')).toBeGreaterThanOrEqual(18);
    expect(count(calm, 'polygon')).toBe(0);
    expect(count(calm, 'path')).toBeGreaterThanOrEqual(3); // horizontal bands
    const bg = (svg: string): string => /class="bg"[^>]*fill="(#[0-9a-f]{6})"/.exec(svg)?.[1] ?? '';
    expect(luminance(bg(render({ style: 'flat', mood: 'dramatic' })))).toBeLessThan(0.15);
    expect(luminance(bg(calm))).toBeGreaterThan(0.8);
  });

  it('escapes a hostile prompt into <title> and <desc>', () => {
    const svg = render({ prompt: `<script>alert("x")</script> & 'q'` });
    expect(svg).not.toContain('<script');
    expect(svg).toContain('<title id="');
    expect(svg).toContain('>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</title>');
    expect(svg).toMatch(/<desc id="[^"]+">[^<]*&lt;script&gt;/);
  });

  it('puts the logo badge, with escaped text, in the requested corner', () => {
    for (const size of IMAGE_SIZES) {
      const [w, h] = size.split('x').map(Number) as [number, number];
      for (const position of LOGO_POSITIONS) {
        const svg = render({ size, logo: { text: 'Acme & <Co>', position } });
        const m = /<rect class="logo-badge" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(svg);
        expect(m, position).not.toBeNull();
        const [x, y, bw, bh] = (m as RegExpExecArray).slice(1).map(Number) as [number, number, number, number];
        expect(x >= 0 && y >= 0 && x + bw <= w && y + bh <= h).toBe(true);
        if (position.endsWith('left')) expect(x).toBeLessThan(w * 0.1);
        else expect(x + bw).toBeGreaterThan(w * 0.9);
        if (position.startsWith('top')) expect(y).toBeLessThan(h * 0.1);
        else expect(y + bh).toBeGreaterThan(h * 0.9);
        expect(svg).toContain('>Acme &amp; &lt;Co&gt;</text>');
        expect(svg).toContain(`data-position="${position}"`);
      }
    }
    expect(render()).not.toContain('class="logo"');
    expect(render({ logo: { text: '   ', position: 'top-left' } })).not.toContain('class="logo"');
  });

  it('rejects input the engine should have refused', () => {
    expect(() => render({ colors: ['red'] })).toThrow(/#rrggbb/);
    expect(() => render({ colors: Array(6).fill('#000000') })).toThrow(/at most 5/);
    expect(() => render({ style: 'oil' as never })).toThrow(/unknown style/);
    expect(() => render({ size: '10x10' as never })).toThrow(/unknown size/);
  });
});

describe('svgToDataUrl', () => {
  it('encodes UTF-8 as base64 and round-trips non-ASCII text', () => {
    const svg = render({ prompt: 'Café crème, 日本の灯台 🎨', logo: { text: 'Zürich ☕', position: 'bottom-left' } });
    const url = svgToDataUrl(svg);
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const binary = atob(url.slice('data:image/svg+xml;base64,'.length));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    expect(new TextDecoder().decode(bytes)).toBe(svg);
  });
});
