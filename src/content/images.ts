/**
 * Placeholder images: a small, valid, ASCII-only SVG composition in a palette derived from
 * the seed and the target (so one brand's images share colours), as a base64 data: URL.
 */
import { Rng } from '../random/rng.js';
import type { ContentInput, GeneratedImage } from './types.js';

export interface Palette {
  background: string;
  backgroundEnd: string;
  accents: string[];
}

function hslToHex(h: number, s: number, l: number): string {
  const hue = ((h % 360) + 360) % 360;
  const sat = s / 100;
  const light = l / 100;
  const a = sat * Math.min(light, 1 - light);
  const channel = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const v = light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

export function brandPalette(input: ContentInput): Palette {
  const rng = new Rng(input.seed, input.target.id, 'palette');
  const hue = rng.int(0, 359);
  return {
    background: hslToHex(hue, 45, 20),
    backgroundEnd: hslToHex(hue + 30, 50, 34),
    accents: [hslToHex(hue + 180, 62, 62), hslToHex(hue + 40, 72, 66), hslToHex(hue - 40, 55, 74)],
  };
}

/** ASCII-only, XML-escaped label text (btoa accepts Latin-1 only). */
function svgText(text: string, max: number): string {
  let ascii = '';
  for (let i = 0; i < text.length && ascii.length < max; i++) {
    const c = text.charCodeAt(i);
    if (c >= 32 && c < 127) ascii += text.charAt(i);
  }
  return ascii.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').trim();
}

export function svgDataUrl(width: number, height: number, label: string, palette: Palette, rng: Rng): string {
  const shapes: string[] = [];
  const count = rng.int(3, 5);
  for (let i = 0; i < count; i++) {
    const fill = palette.accents[i % palette.accents.length];
    const opacity = (rng.int(35, 85) / 100).toFixed(2);
    if (rng.bool(0.6)) {
      const r = rng.int(Math.round(height / 10), Math.round(height / 3));
      shapes.push(`<circle cx="${rng.int(0, width)}" cy="${rng.int(0, height)}" r="${r}" fill="${fill}" fill-opacity="${opacity}"/>`);
    } else {
      const w = rng.int(Math.round(width / 8), Math.round(width / 3));
      const h = rng.int(Math.round(height / 8), Math.round(height / 3));
      shapes.push(
        `<rect x="${rng.int(0, width - w)}" y="${rng.int(0, height - h)}" width="${w}" height="${h}" rx="${rng.int(0, 24)}" fill="${fill}" fill-opacity="${opacity}"/>`,
      );
    }
  }
  const band = Math.round(height * 0.2);
  const fontSize = Math.max(14, Math.round(band * 0.36));
  const text = svgText(label, Math.max(12, Math.floor(width / (fontSize * 0.6))));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.background}"/>` +
    `<stop offset="1" stop-color="${palette.backgroundEnd}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>${shapes.join('')}` +
    `<rect y="${height - band}" width="${width}" height="${band}" fill="#000000" fill-opacity="0.35"/>` +
    `<text x="${Math.round(width * 0.04)}" y="${height - Math.round(band * 0.38)}" font-family="Helvetica, Arial, sans-serif" font-size="${fontSize}" fill="#ffffff">${text}</text></svg>`;
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}

export interface ImageRequest {
  alt: string;
  label: string;
  width: number;
  height: number;
}

export function makeImages(input: ContentInput, requests: readonly ImageRequest[]): GeneratedImage[] {
  const palette = brandPalette(input);
  return requests.map((req, i) => {
    const rng = new Rng(input.seed, input.deliverableId, 'image', i);
    return {
      id: rng.uuid(),
      alt: req.alt,
      url: svgDataUrl(req.width, req.height, req.label, palette, rng),
      width: req.width,
      height: req.height,
    };
  });
}
