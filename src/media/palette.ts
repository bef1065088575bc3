/** Colors: the palette an image uses, mixing helpers, and the background each mood asks for. */
import type { ImageMood } from './image-options.js';

/** Used when the caller gives no colors, so the mood alone still sets the feel. */
export const MOOD_PALETTES: Readonly<Record<ImageMood, readonly string[]>> = {
  calm: ['#6fa8bf', '#a8d5e2', '#cfe8d5', '#3e6e86', '#e8dcc8'],
  energetic: ['#ff3d3d', '#ffb400', '#00c2a8', '#7a1fff', '#ff6f00'],
  serious: ['#1f2a44', '#44546a', '#8a9bb0', '#7a2e2e', '#c9d1dc'],
  playful: ['#ff6fb5', '#ffd23f', '#3bceac', '#5f6cff', '#ff8c42'],
  warm: ['#e07a5f', '#f2cc8f', '#d4a373', '#bc4749', '#f4a261'],
  dramatic: ['#c1121f', '#fdf0d5', '#e09f3e', '#780000', '#669bbc'],
};

type Rgb = [number, number, number];

function rgb(hex: string): Rgb {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function hex([r, g, b]: Rgb): string {
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** `a` moved a fraction `t` (0..1) of the way towards `b`. */
export function mix(a: string, b: string, t: number): string {
  const [x, y] = [rgb(a), rgb(b)];
  return hex([0, 1, 2].map((i) => Math.round((x[i] as number) + ((y[i] as number) - (x[i] as number)) * t)) as Rgb);
}

export const lighten = (color: string, t: number): string => mix(color, '#ffffff', t);
export const darken = (color: string, t: number): string => mix(color, '#000000', t);

/** Perceived brightness 0..1 (Rec. 709 weights on sRGB values; exact enough to pick contrasts). */
export function luminance(color: string): number {
  const [r, g, b] = rgb(color);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

export function choosePalette(colors: readonly string[], mood: ImageMood): string[] {
  return colors.length > 0 ? colors.slice() : MOOD_PALETTES[mood].slice();
}

function byLuminance(palette: readonly string[]): string[] {
  return palette.slice().sort((a, b) => luminance(a) - luminance(b));
}

/** Dramatic wants a near-black stage; the others a light tint of the palette. */
export function backgroundColor(palette: readonly string[], mood: ImageMood): string {
  const sorted = byLuminance(palette);
  const darkest = sorted[0] as string;
  const lightest = sorted[sorted.length - 1] as string;
  switch (mood) {
    case 'dramatic':
      return mix(darkest, '#05060a', 0.85);
    case 'serious':
      return mix(lightest, '#eceef2', 0.8);
    case 'warm':
      return mix(lightest, '#fff1dc', 0.7);
    case 'energetic':
      return mix(lightest, '#ffffff', 0.7);
    case 'playful':
      return mix(lightest, '#fffdf5', 0.8);
    case 'calm':
      return mix(lightest, '#f7fafc', 0.85);
  }
}

/** Text or line color that reads on `color`. */
export function contrastInk(color: string): string {
  return luminance(color) > 0.55 ? '#1b1f24' : '#ffffff';
}
