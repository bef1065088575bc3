/**
 * The composition of an image as abstract shapes, chosen by mood: calm is a few soft
 * horizontal bands, energetic many sharp diagonal shards, serious an aligned grid,
 * playful scattered round and starry bits, warm a low sun over hills, dramatic beams,
 * peaks and a moon. The style decides later how each shape is painted.
 */
import type { Rng } from '../random/rng.js';
import type { ImageMood } from './image-options.js';
import type { Point } from './svg-util.js';

export type Shape =
  | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number; rotate: number; color: number }
  | { kind: 'rect'; x: number; y: number; w: number; h: number; radius: number; rotate: number; color: number }
  | { kind: 'polygon'; points: Point[]; color: number }
  /** A band from a curve down to the bottom edge (sea, hills). */
  | { kind: 'wave'; points: Point[]; bottom: number; color: number };

export interface Canvas {
  w: number;
  h: number;
}

type Layout = (c: Canvas, rng: Rng) => Shape[];

const circle = (cx: number, cy: number, r: number): Shape => ({ kind: 'ellipse', cx, cy, rx: r, ry: r, rotate: 0, color: 0 });

function wave(c: Canvas, rng: Rng, baseY: number, amplitude: number, wavelength: number): Shape {
  const phase = rng.float(0, Math.PI * 2);
  const points: Point[] = [];
  for (let i = 0; i <= 16; i++) {
    const x = -0.05 * c.w + (i / 16) * 1.1 * c.w;
    points.push([x, baseY + amplitude * Math.sin((x / wavelength) * Math.PI * 2 + phase)]);
  }
  return { kind: 'wave', points, bottom: c.h, color: 0 };
}

/** A long thin triangle or bar centred on (x, y) pointing at `angle` (radians). */
function shard(x: number, y: number, angle: number, length: number, thickness: number, bar: boolean): Shape {
  const [dx, dy] = [Math.cos(angle) * length * 0.5, Math.sin(angle) * length * 0.5];
  const [nx, ny] = [-Math.sin(angle) * thickness * 0.5, Math.cos(angle) * thickness * 0.5];
  const tip: Point[] = bar ? [[x + dx - nx, y + dy - ny], [x + dx + nx, y + dy + ny]] : [[x + dx, y + dy]];
  return { kind: 'polygon', points: [...tip, [x - dx + nx, y - dy + ny], [x - dx - nx, y - dy - ny]], color: 0 };
}

function star(cx: number, cy: number, r: number, turn: number): Shape {
  const points: Point[] = [];
  for (let i = 0; i < 10; i++) {
    const a = turn + (i * Math.PI) / 5;
    const radius = i % 2 === 0 ? r : r * 0.45;
    points.push([cx + Math.cos(a) * radius, cy + Math.sin(a) * radius]);
  }
  return { kind: 'polygon', points, color: 0 };
}

const calm: Layout = (c, rng) => {
  const m = Math.min(c.w, c.h);
  const shapes: Shape[] = [circle(rng.float(0.2, 0.8) * c.w, rng.float(0.18, 0.32) * c.h, rng.float(0.08, 0.12) * m)];
  for (let i = rng.int(1, 2); i > 0; i--) {
    const rx = rng.float(0.14, 0.24) * c.w;
    shapes.push({ kind: 'ellipse', cx: rng.float(0.15, 0.85) * c.w, cy: rng.float(0.12, 0.4) * c.h, rx, ry: rx * 0.16, rotate: 0, color: 0 });
  }
  const bands = rng.int(3, 4);
  for (let i = 0; i < bands; i++) {
    const y = (0.55 + (i / bands) * 0.33 + rng.float(-0.02, 0.02)) * c.h;
    shapes.push(wave(c, rng, y, rng.float(0.008, 0.02) * c.h, rng.float(0.7, 1.3) * c.w));
  }
  return shapes;
};

const energetic: Layout = (c, rng) => {
  const diagonal = Math.hypot(c.w, c.h);
  const main = (rng.bool() ? 1 : -1) * rng.float(35, 55) * (Math.PI / 180);
  const shapes: Shape[] = [];
  for (let i = rng.int(18, 26); i > 0; i--) {
    const angle = (rng.bool(0.75) ? main : main + Math.PI / 2) + rng.float(-0.12, 0.12);
    const length = rng.float(0.12, 0.42) * diagonal;
    const thickness = rng.float(0.015, 0.07) * Math.min(c.w, c.h);
    shapes.push(shard(rng.float(0, c.w), rng.float(0, c.h), angle, length, thickness, rng.bool(0.3)));
  }
  return shapes;
};

const serious: Layout = (c, rng) => {
  const columns = rng.int(5, 7);
  const slot = (0.72 * c.w) / columns;
  const base = 0.82 * c.h;
  const shapes: Shape[] = [
    { kind: 'rect', x: 0.1 * c.w, y: 0.12 * c.h, w: 0.36 * c.w, h: 0.022 * c.h, radius: 0, rotate: 0, color: 0 },
  ];
  for (let i = 0; i < columns; i++) {
    const height = rng.float(0.18, 0.55) * c.h;
    shapes.push({ kind: 'rect', x: 0.14 * c.w + i * slot, y: base - height, w: slot * 0.72, h: height, radius: 0, rotate: 0, color: 0 });
  }
  shapes.push({ kind: 'rect', x: 0.1 * c.w, y: base, w: 0.8 * c.w, h: 0.012 * c.h, radius: 0, rotate: 0, color: 0 });
  return shapes;
};

const playful: Layout = (c, rng) => {
  const m = Math.min(c.w, c.h);
  const shapes: Shape[] = [];
  for (let i = rng.int(12, 18); i > 0; i--) {
    const [x, y, r] = [rng.float(0.05, 0.95) * c.w, rng.float(0.05, 0.95) * c.h, rng.float(0.03, 0.12) * m];
    const roll = rng.next();
    if (roll < 0.5) shapes.push(circle(x, y, r));
    else if (roll < 0.75) shapes.push(star(x, y, r, rng.float(0, Math.PI)));
    else shapes.push({ kind: 'rect', x: x - r, y: y - r * 0.6, w: r * 2, h: r * 1.2, radius: r * 0.5, rotate: rng.float(-35, 35), color: 0 });
  }
  return shapes;
};

const warm: Layout = (c, rng) => {
  const m = Math.min(c.w, c.h);
  const shapes: Shape[] = [circle(rng.float(0.3, 0.7) * c.w, rng.float(0.42, 0.52) * c.h, rng.float(0.17, 0.23) * m)];
  for (let i = rng.int(4, 6); i > 0; i--) shapes.push(circle(rng.float(0.05, 0.95) * c.w, rng.float(0.05, 0.4) * c.h, rng.float(0.012, 0.035) * m));
  for (let i = 0; i < 3; i++) {
    shapes.push(wave(c, rng, (0.62 + i * 0.1) * c.h, rng.float(0.035, 0.065) * c.h, rng.float(0.8, 1.6) * c.w));
  }
  return shapes;
};

const dramatic: Layout = (c, rng) => {
  const m = Math.min(c.w, c.h);
  const shapes: Shape[] = [];
  for (let i = rng.int(2, 3); i > 0; i--) {
    const apex = rng.float(0.1, 0.9) * c.w;
    const spread = rng.float(0.12, 0.3) * c.w;
    const foot = apex + rng.float(-0.4, 0.4) * c.w;
    shapes.push({ kind: 'polygon', points: [[apex, -0.02 * c.h], [foot - spread, c.h], [foot + spread, c.h]], color: 0 });
  }
  shapes.push(circle(rng.float(0.2, 0.8) * c.w, rng.float(0.15, 0.35) * c.h, rng.float(0.07, 0.12) * m));
  for (let i = rng.int(1, 2); i > 0; i--) {
    const peaks: Point[] = [[-0.02 * c.w, c.h]];
    const steps = rng.int(4, 7);
    for (let s = 0; s <= steps; s++) peaks.push([(s / steps) * 1.04 * c.w - 0.02 * c.w, c.h * rng.float(0.5, 0.85)]);
    peaks.push([1.02 * c.w, c.h]);
    shapes.push({ kind: 'polygon', points: peaks, color: 0 });
  }
  for (let i = rng.int(1, 2); i > 0; i--) {
    const angle = (rng.bool() ? 1 : -1) * rng.float(25, 40) * (Math.PI / 180);
    shapes.push(shard(rng.float(0.2, 0.8) * c.w, rng.float(0.3, 0.7) * c.h, angle, 0.9 * Math.hypot(c.w, c.h), 0.05 * m, false));
  }
  return shapes;
};

const LAYOUTS: Record<ImageMood, Layout> = { calm, energetic, serious, playful, warm, dramatic };

/**
 * Shapes for the mood, colored so that every palette color is used: each layout makes at
 * least 5 shapes and the palette has at most 5 colors, so cycling covers them all.
 */
export function layoutShapes(mood: ImageMood, canvas: Canvas, rng: Rng, colorCount: number): Shape[] {
  const shapes = LAYOUTS[mood](canvas, rng);
  const offset = rng.int(0, colorCount - 1);
  return shapes.map((shape, i) => ({ ...shape, color: (i + offset) % colorCount }));
}
