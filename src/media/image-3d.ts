/**
 * The 3d style: every shape becomes a lit solid (light from the top left). Ellipses are
 * spheres with an off-centre highlight and a cast shadow, rectangles are boxes with a
 * lit top and a shaded side, polygons are extruded prisms, waves are layered terrain.
 */
import type { Shape } from './image-layout.js';
import { darken, lighten, mix } from './palette.js';
import {
  type PaintContext, type Painted, backgroundRect, blurFilter, linearGradients, ref, stop, vignette,
} from './paint-defs.js';
import { shapeSvg } from './shape-svg.js';
import { type Point, el, num, pointsAttr, smoothPath } from './svg-util.js';

const polygon = (points: readonly Point[], fill: string): string => el('polygon', { points: pointsAttr(points), fill });

function sphere(s: Extract<Shape, { kind: 'ellipse' }>, ctx: PaintContext): string[] {
  const r = Math.max(s.rx, s.ry);
  const shadow = el('ellipse', {
    cx: s.cx + r * 0.25, cy: s.cy + s.ry * 0.95, rx: s.rx * 0.9, ry: r * 0.16,
    fill: '#000000', opacity: 0.28, filter: ref(`${ctx.prefix}-shadow`),
  });
  return [shadow, shapeSvg(s, { fill: ref(`${ctx.prefix}-sph-${s.color}`) })];
}

function box(s: Extract<Shape, { kind: 'rect' }>, ctx: PaintContext): string[] {
  const c = ctx.palette[s.color] as string;
  const d = Math.min(Math.min(s.w, s.h) * 0.35, Math.min(ctx.w, ctx.h) * 0.05);
  const { x, y, w, h } = s;
  const faces = [
    polygon([[x, y], [x + d, y - d], [x + w + d, y - d], [x + w, y]], lighten(c, 0.3)),
    polygon([[x + w, y], [x + w + d, y - d], [x + w + d, y + h - d], [x + w, y + h]], darken(c, 0.35)),
    el('rect', { x, y, width: w, height: h, fill: ref(`${ctx.prefix}-face-${s.color}`) }),
  ].join('');
  const turn = Math.abs(s.rotate) < 0.05 ? undefined : `rotate(${num(s.rotate)} ${num(x + w / 2)} ${num(y + h / 2)})`;
  return [el('g', { transform: turn }, faces)];
}

function prism(s: Extract<Shape, { kind: 'polygon' }>, ctx: PaintContext): string[] {
  const c = ctx.palette[s.color] as string;
  const d = Math.min(ctx.w, ctx.h) * 0.025;
  const back = s.points.map(([x, y]) => [x + d, y - d] as const);
  const out = [polygon(back, darken(c, 0.45))];
  s.points.forEach((a, i) => {
    const b = s.points[(i + 1) % s.points.length] as Point;
    // Sides whose outward normal faces up or left catch the light; the others fall in shade.
    const facing = (b[0] - a[0]) * 0.7 + (b[1] - a[1]) * -0.7;
    const shade = facing > 0 ? lighten(c, 0.15) : darken(c, 0.3);
    out.push(polygon([a, b, back[(i + 1) % back.length] as Point, back[i] as Point], shade));
  });
  out.push(polygon(s.points, ref(`${ctx.prefix}-face-${s.color}`)));
  return out;
}

function terrain(s: Extract<Shape, { kind: 'wave' }>, ctx: PaintContext): string[] {
  const c = ctx.palette[s.color] as string;
  const rim = s.points.map(([x, y]) => [x, y - Math.min(ctx.w, ctx.h) * 0.012] as const);
  return [
    shapeSvg({ ...s, points: rim }, { fill: darken(c, 0.35) }),
    shapeSvg(s, { fill: ref(`${ctx.prefix}-face-${s.color}`) }),
    el('path', { d: smoothPath(s.points, false), fill: 'none', stroke: lighten(c, 0.5), 'stroke-width': Math.min(ctx.w, ctx.h) * 0.003, opacity: 0.8 }),
  ];
}

export function paint3d(shapes: Shape[], ctx: PaintContext): Painted {
  const p = ctx.prefix;
  const shade = vignette(ctx);
  const defs = [
    ...ctx.palette.map((c, i) =>
      el('radialGradient', { id: `${p}-sph-${i}`, cx: 0.5, cy: 0.5, r: 0.55, fx: 0.32, fy: 0.28 },
        stop(0, lighten(c, 0.7)) + stop(0.45, c) + stop(1, darken(c, 0.55))),
    ),
    ...linearGradients(ctx, 'face', 0.2, 0.35),
    el('linearGradient', { id: `${p}-floor`, x1: 0, y1: 0, x2: 0, y2: 1 },
      stop(0, ctx.background) + stop(0.62, ctx.background) + stop(1, mix(ctx.background, '#000000', 0.18))),
    blurFilter(`${p}-shadow`, Math.min(ctx.w, ctx.h) * 0.01),
    shade.def,
  ];
  const body = shapes.flatMap((s) => {
    switch (s.kind) {
      case 'ellipse':
        return sphere(s, ctx);
      case 'rect':
        return box(s, ctx);
      case 'polygon':
        return prism(s, ctx);
      case 'wave':
        return terrain(s, ctx);
    }
  });
  return { defs, background: [backgroundRect(ctx, ref(`${p}-floor`))], body: [...body, shade.rect] };
}
