/**
 * How each style paints the mood's shapes: photo with gradients, soft focus and light;
 * flat with solid fills; line_art with strokes only; watercolor with warped, blurred,
 * translucent washes; 3d with shaded solids (image-3d.ts); illustration mixes fills,
 * gradients and ink outlines.
 */
import type { ImageStyle } from './image-options.js';
import type { Shape } from './image-layout.js';
import { paint3d } from './image-3d.js';
import { darken, mix } from './palette.js';
import {
  type PaintContext, type Painted, backgroundRect, blurFilter, glowGradients, linearGradients, ref, stop, vignette,
} from './paint-defs.js';
import { outlineSvg, shapeSvg, wobblySvg } from './shape-svg.js';
import { el, num } from './svg-util.js';

const minSide = (ctx: PaintContext): number => Math.min(ctx.w, ctx.h);
const colorOf = (ctx: PaintContext, shape: Shape): string => ctx.palette[shape.color] as string;

function photo(shapes: Shape[], ctx: PaintContext): Painted {
  const p = ctx.prefix;
  const dark = ctx.mood === 'dramatic';
  const tint = mix(ctx.background, ctx.palette[0] as string, dark ? 0.15 : 0.3);
  const shade = vignette(ctx);
  const defs = [
    el('linearGradient', { id: `${p}-sky`, x1: 0, y1: 0, x2: 0, y2: 1 }, stop(0, dark ? ctx.background : tint) + stop(1, dark ? tint : ctx.background)),
    el('radialGradient', { id: `${p}-light`, cx: 0.5, cy: 0.5, r: 0.5 }, stop(0, '#ffffff', dark ? 0.35 : 0.5) + stop(1, '#ffffff', 0)),
    ...linearGradients(ctx, 'lin'),
    ...glowGradients(ctx, 'glow'),
    blurFilter(`${p}-soft`, minSide(ctx) * 0.002),
    blurFilter(`${p}-far`, minSide(ctx) * 0.009),
    shade.def,
  ];
  // The first third sits "behind the focus plane": blurrier and fainter, like depth of field.
  const body = shapes.map((s, i) => {
    const far = i < shapes.length / 3;
    const fill = ref(`${p}-${s.kind === 'ellipse' ? 'glow' : 'lin'}-${s.color}`);
    return shapeSvg(s, { fill, opacity: far ? 0.75 : 0.92, filter: ref(`${p}-${far ? 'far' : 'soft'}`) });
  });
  const light = el('ellipse', { cx: ctx.w * 0.3, cy: ctx.h * 0.2, rx: ctx.w * 0.45, ry: ctx.h * 0.3, fill: ref(`${p}-light`) });
  return { defs, background: [backgroundRect(ctx, ref(`${p}-sky`))], body: [...body, light, shade.rect] };
}

function flat(shapes: Shape[], ctx: PaintContext): Painted {
  return {
    defs: [],
    background: [backgroundRect(ctx, ctx.background)],
    body: shapes.map((s) => shapeSvg(s, { fill: colorOf(ctx, s) })),
  };
}

function lineArt(shapes: Shape[], ctx: PaintContext): Painted {
  const paper = ctx.mood === 'dramatic' ? ctx.background : mix(ctx.background, '#ffffff', 0.5);
  const width = minSide(ctx) * (ctx.mood === 'energetic' ? 0.004 : ctx.mood === 'calm' ? 0.007 : 0.0055);
  const body: string[] = [];
  for (const s of shapes) {
    const stroke = { fill: 'none', stroke: colorOf(ctx, s), 'stroke-width': width, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
    body.push(outlineSvg(s, stroke));
    // A second contour line gives the drawing some volume without any fill.
    if (s.kind === 'ellipse') {
      body.push(outlineSvg({ ...s, rx: s.rx * 0.66, ry: s.ry * 0.66 }, { ...stroke, 'stroke-width': width * 0.6 }));
    } else if (s.kind === 'wave') {
      const lower = s.points.map(([x, y]) => [x, y + ctx.h * 0.018] as const);
      body.push(outlineSvg({ ...s, points: lower }, { ...stroke, 'stroke-width': width * 0.6, 'stroke-dasharray': `${num(width * 4)} ${num(width * 3)}` }));
    }
  }
  return { defs: [], background: [backgroundRect(ctx, paper)], body };
}

function watercolor(shapes: Shape[], ctx: PaintContext): Painted {
  const p = ctx.prefix;
  const m = minSide(ctx);
  const defs = [
    el('filter', { id: `${p}-wash`, x: '-25%', y: '-25%', width: '150%', height: '150%' },
      el('feTurbulence', { type: 'fractalNoise', baseFrequency: 0.012, numOctaves: 3, seed: ctx.rng.int(1, 999), result: 'noise' }) +
      el('feDisplacementMap', { in: 'SourceGraphic', in2: 'noise', scale: m * 0.045, xChannelSelector: 'R', yChannelSelector: 'G', result: 'warp' }) +
      el('feGaussianBlur', { in: 'warp', stdDeviation: m * 0.008 })),
    el('filter', { id: `${p}-paper`, x: 0, y: 0, width: '100%', height: '100%' },
      el('feTurbulence', { type: 'fractalNoise', baseFrequency: 0.9, numOctaves: 2, seed: ctx.rng.int(1, 999) }) +
      el('feColorMatrix', { type: 'saturate', values: 0 })),
  ];
  const paper = mix(ctx.background, '#fbf7ee', ctx.mood === 'dramatic' ? 0.1 : 0.6);
  const texture = el('rect', { class: 'texture', x: 0, y: 0, width: ctx.w, height: ctx.h, filter: ref(`${p}-paper`), opacity: 0.12 });
  // Washes darken paper (multiply); on a dark dramatic ground they would vanish, so they lighten it.
  const blend = ctx.mood === 'dramatic' ? 'mix-blend-mode:screen' : 'mix-blend-mode:multiply';
  const body: string[] = [];
  for (const s of shapes) {
    const wash = { fill: colorOf(ctx, s), 'fill-opacity': ctx.rng.float(0.45, 0.6), filter: ref(`${p}-wash`), style: blend };
    body.push(wobblySvg(s, ctx.rng, wash));
    // A second, paler layer slightly off register, as when a wash is glazed twice.
    const [dx, dy] = [ctx.rng.float(-1, 1) * m * 0.012, ctx.rng.float(-1, 1) * m * 0.012];
    body.push(el('g', { transform: `translate(${num(dx)} ${num(dy)})` }, wobblySvg(s, ctx.rng, { ...wash, 'fill-opacity': 0.22 })));
  }
  return { defs, background: [backgroundRect(ctx, paper), texture], body };
}

function illustration(shapes: Shape[], ctx: PaintContext): Painted {
  const p = ctx.prefix;
  const m = minSide(ctx);
  const defs = [
    el('linearGradient', { id: `${p}-ground`, x1: 0, y1: 0, x2: 0, y2: 1 }, stop(0, ctx.background) + stop(1, mix(ctx.background, ctx.palette[0] as string, 0.18))),
    ...linearGradients(ctx, 'lin', 0.25, 0.15),
  ];
  const body: string[] = [];
  shapes.forEach((s, i) => {
    const c = colorOf(ctx, s);
    const fill = i % 2 === 0 ? c : ref(`${p}-lin-${s.color}`);
    body.push(shapeSvg(s, { fill, stroke: darken(c, 0.55), 'stroke-width': m * 0.004, 'stroke-linejoin': 'round' }));
    if (s.kind === 'ellipse') {
      const [rx, ry] = [s.rx * 0.28, s.ry * 0.18];
      body.push(el('ellipse', { cx: s.cx - s.rx * 0.35, cy: s.cy - s.ry * 0.4, rx, ry, fill: '#ffffff', opacity: 0.45 }));
    }
  });
  return { defs, background: [backgroundRect(ctx, ref(`${p}-ground`))], body };
}

const PAINTERS: Record<ImageStyle, (shapes: Shape[], ctx: PaintContext) => Painted> = {
  photo, flat, line_art: lineArt, watercolor, illustration, '3d': paint3d,
};

export function paintArt(style: ImageStyle, shapes: Shape[], ctx: PaintContext): Painted {
  const painted = PAINTERS[style](shapes, ctx);
  // Dramatic always gets its dark edges (photo and 3d add their own); line art stays strokes-only.
  if (ctx.mood === 'dramatic' && (style === 'flat' || style === 'watercolor' || style === 'illustration')) {
    const shade = vignette(ctx);
    return { ...painted, defs: [...painted.defs, shade.def], body: [...painted.body, shade.rect] };
  }
  return painted;
}
