/** Small helpers to write SVG markup as strings: escaping, numbers, elements, smooth paths. */

export type Point = readonly [number, number];
export type Attrs = Record<string, string | number | undefined>;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// XML 1.0 forbids these characters even as references, so a parser would reject the
// whole document; dropping them is the only way to keep it well-formed.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for use in XML content and in quoted attribute values. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** Short, stable numbers: one decimal for coordinates, two for fractions (offsets, opacities). */
export function num(value: number): string {
  const scale = Math.abs(value) < 10 ? 100 : 10;
  const rounded = Math.round(value * scale) / scale;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

export function el(tag: string, attrs: Attrs, children?: string): string {
  let out = `<${tag}`;
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined) continue;
    out += ` ${name}="${typeof value === 'number' ? num(value) : escapeXml(value)}"`;
  }
  return children === undefined ? `${out}/>` : `${out}>${children}</${tag}>`;
}

export function pointsAttr(points: readonly Point[]): string {
  return points.map(([x, y]) => `${num(x)},${num(y)}`).join(' ');
}

/** A Catmull-Rom curve through the points, written as cubic Béziers. */
export function smoothPath(points: readonly Point[], closed: boolean): string {
  const n = points.length;
  if (n < 2) return '';
  const at = (i: number): Point =>
    closed ? (points[((i % n) + n) % n] as Point) : (points[Math.max(0, Math.min(n - 1, i))] as Point);
  const first = at(0);
  let d = `M${num(first[0])} ${num(first[1])}`;
  const segments = closed ? n : n - 1;
  for (let i = 0; i < segments; i++) {
    const [p0, p1, p2, p3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
    const c1x = p1[0] + (p2[0] - p0[0]) / 6;
    const c1y = p1[1] + (p2[1] - p0[1]) / 6;
    const c2x = p2[0] - (p3[0] - p1[0]) / 6;
    const c2y = p2[1] - (p3[1] - p1[1]) / 6;
    d += `C${num(c1x)} ${num(c1y)} ${num(c2x)} ${num(c2y)} ${num(p2[0])} ${num(p2[1])}`;
  }
  return closed ? `${d}Z` : d;
}
