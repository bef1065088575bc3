/** Turns an abstract shape into an SVG element; the caller supplies the paint attributes. */
import type { Rng } from '../random/rng.js';
import type { Shape } from './image-layout.js';
import { type Attrs, type Point, el, num, pointsAttr, smoothPath } from './svg-util.js';

function rotation(angle: number, cx: number, cy: number): string | undefined {
  return Math.abs(angle) < 0.05 ? undefined : `rotate(${num(angle)} ${num(cx)} ${num(cy)})`;
}

/** The filled form of the shape. */
export function shapeSvg(shape: Shape, paint: Attrs): string {
  switch (shape.kind) {
    case 'ellipse':
      if (shape.rx === shape.ry) return el('circle', { cx: shape.cx, cy: shape.cy, r: shape.rx, ...paint });
      return el('ellipse', {
        cx: shape.cx, cy: shape.cy, rx: shape.rx, ry: shape.ry,
        transform: rotation(shape.rotate, shape.cx, shape.cy), ...paint,
      });
    case 'rect':
      return el('rect', {
        x: shape.x, y: shape.y, width: shape.w, height: shape.h, rx: shape.radius > 0 ? shape.radius : undefined,
        transform: rotation(shape.rotate, shape.x + shape.w / 2, shape.y + shape.h / 2), ...paint,
      });
    case 'polygon':
      return el('polygon', { points: pointsAttr(shape.points), ...paint });
    case 'wave': {
      const first = shape.points[0] as Point;
      const last = shape.points[shape.points.length - 1] as Point;
      const d = `${smoothPath(shape.points, false)}L${num(last[0])} ${num(shape.bottom)}L${num(first[0])} ${num(shape.bottom)}Z`;
      return el('path', { d, ...paint });
    }
  }
}

/** The outline only: for a wave that is its crest line, not the band's box edges. */
export function outlineSvg(shape: Shape, paint: Attrs): string {
  if (shape.kind === 'wave') return el('path', { d: smoothPath(shape.points, false), ...paint });
  return shapeSvg(shape, paint);
}

/** The same shape with a hand-made wobble, for media that never draw a true ellipse. */
export function wobblySvg(shape: Shape, rng: Rng, paint: Attrs): string {
  if (shape.kind !== 'ellipse') return shapeSvg(shape, paint);
  const points: Point[] = [];
  const turn = (shape.rotate * Math.PI) / 180;
  for (let i = 0; i < 9; i++) {
    const a = (i / 9) * Math.PI * 2;
    const k = rng.float(0.85, 1.12);
    const [x, y] = [Math.cos(a) * shape.rx * k, Math.sin(a) * shape.ry * k];
    points.push([shape.cx + x * Math.cos(turn) - y * Math.sin(turn), shape.cy + x * Math.sin(turn) + y * Math.cos(turn)]);
  }
  return el('path', { d: smoothPath(points, true), ...paint });
}

/** A point inside the shape, to hang highlights and shadows on. */
export function shapeCenter(shape: Shape): Point {
  switch (shape.kind) {
    case 'ellipse':
      return [shape.cx, shape.cy];
    case 'rect':
      return [shape.x + shape.w / 2, shape.y + shape.h / 2];
    default: {
      const sum = shape.points.reduce<[number, number]>((acc, [x, y]) => [acc[0] + x, acc[1] + y], [0, 0]);
      return [sum[0] / shape.points.length, sum[1] / shape.points.length];
    }
  }
}
