/** The brand-logo overlay: a pill badge with a monogram and the brand text, in one corner. */
import type { ImageLogo } from './image-options.js';
import { contrastInk } from './palette.js';
import { el, escapeXml } from './svg-util.js';

const MAX_LOGO_CHARS = 24;
const FONT = 'Helvetica, Arial, sans-serif';

/** Rough advance width in em, so the badge fits its text without measuring fonts. */
function emWidth(char: string): number {
  const code = char.codePointAt(0) as number;
  if (code >= 0x1100) return 1; // CJK, emoji and other wide scripts
  if (/[A-Z0-9@#%&MW]/.test(char)) return 0.68;
  if (/[ il.,'|!:;]/.test(char)) return 0.3;
  return 0.55;
}

export interface LogoBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the badge goes; exported so tests (and the engine) can reason about placement. */
export function logoBox(logo: ImageLogo, w: number, h: number): LogoBox & { chars: string[]; fontSize: number } {
  let chars = Array.from(logo.text.trim().replace(/\s+/g, ' '));
  if (chars.length > MAX_LOGO_CHARS) chars = [...chars.slice(0, MAX_LOGO_CHARS - 1), '…'];
  const min = Math.min(w, h);
  const margin = Math.round(min * 0.04);
  const height = Math.round(min * 0.075);
  const fontSize = Math.round(height * 0.4);
  const textWidth = chars.reduce((sum, c) => sum + emWidth(c), 0) * fontSize;
  const width = Math.round(height * 0.25 + height * 0.7 + height * 0.2 + textWidth + height * 0.4);
  const x = logo.position.endsWith('left') ? margin : w - margin - width;
  const y = logo.position.startsWith('top') ? margin : h - margin - height;
  return { x, y, width, height, chars, fontSize };
}

/** Empty markup when the logo text is blank: there is nothing to brand with. */
export function renderLogo(logo: ImageLogo, w: number, h: number, brandColor: string): string {
  const box = logoBox(logo, w, h);
  if (box.chars.length === 0) return '';
  const { x, y, width, height, fontSize } = box;
  const markR = height * 0.35;
  const markCx = x + height * 0.25 + markR;
  const cy = y + height / 2;
  const initial = (box.chars[0] as string).toUpperCase();
  return el('g', { class: 'logo', 'data-position': logo.position }, [
    el('rect', {
      class: 'logo-badge', x, y, width, height, rx: height / 2,
      fill: '#ffffff', 'fill-opacity': 0.92, stroke: brandColor, 'stroke-width': Math.max(2, height * 0.04),
    }),
    el('circle', { cx: markCx, cy, r: markR, fill: brandColor }),
    el('text', {
      x: markCx, y: cy + fontSize * 0.36, 'text-anchor': 'middle', 'font-family': FONT,
      'font-size': fontSize, 'font-weight': 700, fill: contrastInk(brandColor),
    }, escapeXml(initial)),
    el('text', {
      class: 'logo-text', x: markCx + markR + height * 0.2, y: cy + fontSize * 0.36, 'font-family': FONT,
      'font-size': fontSize, 'font-weight': 600, fill: '#1b1f24',
    }, escapeXml(box.chars.join(''))),
  ].join(''));
}
