/** What every style painter receives and returns, and the shared <defs> it draws with. */
import type { Rng } from '../random/rng.js';
import type { ImageMood } from './image-options.js';
import { darken, lighten } from './palette.js';
import { el } from './svg-util.js';

export interface PaintContext {
  palette: readonly string[];
  /** Prefix for ids in <defs>, unique per image so inlined SVGs do not clash. */
  prefix: string;
  w: number;
  h: number;
  mood: ImageMood;
  background: string;
  rng: Rng;
}

export interface Painted {
  defs: string[];
  /** Elements that fill the whole canvas behind the art (the first is a full-size rect). */
  background: string[];
  body: string[];
}

export const ref = (id: string): string => `url(#${id})`;

export function stop(offset: number, color: string, opacity?: number): string {
  return el('stop', { offset, 'stop-color': color, 'stop-opacity': opacity });
}

/** Per palette color: light at the top, the color itself, shade at the bottom. */
export function linearGradients(ctx: PaintContext, name: string, light = 0.35, shade = 0.25): string[] {
  return ctx.palette.map((c, i) =>
    el('linearGradient', { id: `${ctx.prefix}-${name}-${i}`, x1: 0, y1: 0, x2: 0, y2: 1 },
      stop(0, lighten(c, light)) + stop(0.55, c) + stop(1, darken(c, shade))),
  );
}

/** Per palette color: a soft glow that fades to transparent at the edge. */
export function glowGradients(ctx: PaintContext, name: string): string[] {
  return ctx.palette.map((c, i) =>
    el('radialGradient', { id: `${ctx.prefix}-${name}-${i}` },
      stop(0, lighten(c, 0.25)) + stop(0.7, c, 0.9) + stop(1, c, 0)),
  );
}

export function blurFilter(id: string, deviation: number): string {
  return el('filter', { id, x: '-30%', y: '-30%', width: '160%', height: '160%' },
    el('feGaussianBlur', { stdDeviation: deviation }));
}

export function backgroundRect(ctx: PaintContext, fill: string): string {
  return el('rect', { class: 'bg', x: 0, y: 0, width: ctx.w, height: ctx.h, fill });
}

/** Darkened edges: strong for dramatic (its high contrast), faint otherwise. */
export function vignette(ctx: PaintContext): { def: string; rect: string } {
  const id = `${ctx.prefix}-vignette`;
  const edge = ctx.mood === 'dramatic' ? 0.7 : 0.22;
  const def = el('radialGradient', { id, cx: 0.5, cy: 0.45, r: 0.75 }, stop(0.55, '#000000', 0) + stop(1, '#000000', edge));
  return { def, rect: el('rect', { class: 'overlay', x: 0, y: 0, width: ctx.w, height: ctx.h, fill: ref(id) }) };
}
