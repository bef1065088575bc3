/** The media renderers: SVG images and WAV speech, pure and deterministic, no Node APIs. */
export * from './image-svg.js';
export { MOOD_PALETTES } from './palette.js';
export { logoBox, type LogoBox } from './image-logo.js';
export * from './speech-wav.js';
export * from './voices.js';
export { bytesToBase64, toDataUrl } from './data-url.js';
