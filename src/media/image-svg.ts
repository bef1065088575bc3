/**
 * The simulator's "AI image": a deterministic SVG built from the request. Mood picks the
 * composition, style the painting technique, colors the palette; the prompt becomes the
 * accessible title and description, and the optional logo a badge in one corner.
 */
import { Rng, hash32 } from '../random/rng.js';
import { type ImageSvgInput, assertImageInput, imageDimensions } from './image-options.js';
import { layoutShapes } from './image-layout.js';
import { renderLogo } from './image-logo.js';
import { paintArt } from './image-styles.js';
import { backgroundColor, choosePalette } from './palette.js';
import { el, escapeXml } from './svg-util.js';

export {
  IMAGE_MOODS, IMAGE_SIZES, IMAGE_STYLES, LOGO_POSITIONS, MAX_IMAGE_COLORS, HEX_COLOR_PATTERN, imageDimensions,
} from './image-options.js';
export type { ImageLogo, ImageMood, ImageSize, ImageStyle, ImageSvgInput, LogoPosition } from './image-options.js';
export { svgToDataUrl } from './data-url.js';

const STYLE_NAMES: Record<ImageSvgInput['style'], string> = {
  photo: 'Photographic', illustration: 'Illustrated', flat: 'Flat', watercolor: 'Watercolor', line_art: 'Line-art', '3d': '3D',
};

export function renderImageSvg(input: ImageSvgInput): string {
  assertImageInput(input);
  const { width: w, height: h } = imageDimensions(input.size);
  const rng = new Rng(input.seed, 'image', input.id);
  const palette = choosePalette(input.colors, input.mood);
  // Ids inside <defs> are global in an HTML page, so they carry a per-image prefix.
  const prefix = `img${hash32(`${input.seed}\u0000${input.id}`).toString(36)}`;
  const ctx = { palette, prefix, w, h, mood: input.mood, background: backgroundColor(palette, input.mood), rng };
  const shapes = layoutShapes(input.mood, { w, h }, rng, palette.length);
  const art = paintArt(input.style, shapes, ctx);
  const logo = input.logo ? renderLogo(input.logo, w, h, palette[0] as string) : '';
  const description = `${STYLE_NAMES[input.style]} image, ${input.mood} mood, palette ${palette.join(' ')}: ${input.prompt}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-labelledby="${prefix}-title ${prefix}-desc">`,
    el('title', { id: `${prefix}-title` }, escapeXml(input.prompt)),
    el('desc', { id: `${prefix}-desc` }, escapeXml(description)),
    art.defs.length > 0 ? el('defs', {}, art.defs.join('')) : '',
    el('g', { class: 'background' }, art.background.join('')),
    el('g', { class: `art style-${input.style} mood-${input.mood}` }, art.body.join('\n')),
    logo,
    '</svg>',
    '',
  ].filter((line, i, all) => line !== '' || i === all.length - 1).join('\n');
}
