import fc from 'fast-check';
import { fieldsOf, nonNull, type BrokenConstraint, type Json } from './schema.js';

/**
 * Values openapi.yaml's request schemas accept, at the edges of validity, and values that break
 * one constraint each. Lengths are counted in characters (code points), as JSON Schema counts
 * them: a string at its maxLength mixes characters outside the BMP (two UTF-16 units each),
 * a decomposed (NFD) accent and markup characters, so that a server that counts UTF-16 units
 * or bytes, normalizes, trims or unescapes what it stores fails to read it back.
 */
const HARD = ['a', 'Z', '7', ' ', 'é', 'e', '\u0301', '𝄞', '😀', '中', '<', '&', '"', "'", '>'];
/** Characters that keep a string free of leading or trailing blanks and of combining marks at its start. */
const EDGE = ['a', 'Z', '7', '𝄞', 'é', '中'];

/** How a generated body fills its fields: every optional one at its longest, the required ones at their shortest, or drawn. */
export type Shape = 'longest' | 'shortest' | 'drawn';

export interface Context {
  /** Unique per run and per call: slugs and names that must not collide. */
  unique: string;
  /** Values for fields the body cannot make up (ids of the account's own resources). */
  given: Record<string, unknown>;
  /** Body n of a series takes value n of every enum (so that n bodies use them all); drawn when not given. */
  enumIndex?: number;
}

const codePoints = (s: string) => [...s].length;

/** A string of exactly `length` characters from the hard alphabet, with plain characters at its edges. */
function hardString(length: number): fc.Arbitrary<string> {
  if (length <= 0) return fc.constant('');
  if (length === 1) return fc.constantFrom(...EDGE);
  return fc
    .tuple(fc.constantFrom(...EDGE), fc.array(fc.constantFrom(...HARD), { minLength: length - 2, maxLength: length - 2 }), fc.constantFrom(...EDGE))
    .map(([first, middle, last]) => `${first}${middle.join('')}${last}`);
}

/** A slug (`^[a-z0-9]+(-[a-z0-9]+)*$`) of exactly `length` characters that starts with the context's unique part. */
function slugOf(length: number, unique: string): fc.Arbitrary<string> {
  const head = unique.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, Math.max(1, length - 2));
  return fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), { minLength: length, maxLength: length }).map((tail) => {
    const joined = `${head}-${tail.join('')}`.slice(0, length);
    return joined.replace(/-$/, 'x');
  });
}

/** A string a schema accepts, at a length the shape asks for; undefined for a pattern this module cannot satisfy. */
export function stringFor(schema: Json, shape: Shape, ctx: Context): fc.Arbitrary<string> | undefined {
  if (Array.isArray(schema.enum)) return ctx.enumIndex === undefined ? fc.constantFrom(...(schema.enum as string[])) : fc.constant(schema.enum[ctx.enumIndex % schema.enum.length] as string);
  if (schema.format === 'uuid') return undefined;
  const min = Math.max(schema.minLength ?? 0, 1);
  const max = Math.min(schema.maxLength ?? 60, 4000);
  const length: fc.Arbitrary<number> = shape === 'longest' ? fc.constant(max) : shape === 'shortest' ? fc.constant(min) : fc.integer({ min, max: Math.min(max, min + 40) });
  const pattern = schema.pattern as string | undefined;
  if (pattern === '^[a-z0-9]+(-[a-z0-9]+)*$') return length.chain((n) => slugOf(Math.max(n, Math.min(max, ctx.unique.length + 3)), ctx.unique));
  if (pattern?.startsWith('^https://')) return length.chain((n) => fc.constant(`https://example.com/${'p'.repeat(Math.max(0, n - 20))}`));
  if (schema.format === 'email' || pattern?.includes('@')) return fc.constantFrom('press@example.com', 'a.b@news.example.org');
  if (pattern && pattern !== '\\S') return undefined;
  // A name is made unique by its start where the shape leaves room (names of one account may collide otherwise).
  return length.chain((n) => hardString(n));
}

/** A value of any schema, or undefined when it cannot be made up here. */
export function valueFor(schema: Json, shape: Shape, ctx: Context, name = ''): fc.Arbitrary<unknown> | undefined {
  const { schema: s } = nonNull(schema);
  if (name in ctx.given) return fc.constant(ctx.given[name]);
  if (Array.isArray(s.enum)) return ctx.enumIndex === undefined ? fc.constantFrom(...(s.enum as unknown[])) : fc.constant(s.enum[ctx.enumIndex % s.enum.length]);
  switch (s.type) {
    case 'string':
      return stringFor(s, shape, ctx);
    case 'integer': {
      const min = s.minimum ?? 0;
      const max = s.maximum ?? min + 100;
      return shape === 'longest' ? fc.constant(max) : shape === 'shortest' ? fc.constant(min) : fc.integer({ min, max });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const values = nonNull(s.items ?? {}).schema.enum as unknown[] | undefined;
      if (Array.isArray(values)) {
        // A set of enum values: all of them (longest), the series' one (shortest), or any subset.
        const most = values.slice(0, s.maxItems ?? values.length);
        if (shape === 'longest') return fc.constant(most);
        if (shape === 'shortest') return fc.constant([values[(ctx.enumIndex ?? 0) % values.length]].slice(0, Math.max(1, s.minItems ?? 1)));
        return fc.subarray(most, { minLength: Math.max(1, s.minItems ?? 0) });
      }
      const item = valueFor(s.items ?? {}, shape, ctx);
      if (!item) return undefined;
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? 3, 5);
      const count = shape === 'longest' ? max : shape === 'shortest' ? min : undefined;
      const options = count === undefined ? { minLength: min, maxLength: max } : { minLength: count, maxLength: count };
      return s.uniqueItems ? fc.uniqueArray(item, { ...options, selector: (v) => JSON.stringify(v) }) : fc.array(item, options);
    }
    case 'object':
      return objectFor(s, shape, ctx);
    default:
      return undefined;
  }
}

/**
 * An object of a schema: its required fields always, its optional ones all (longest), none
 * (shortest) or drawn; fields whose value cannot be made up are left out when optional.
 * Conditional requirements (`if`/`then`, in allOf or at the top) are met after drawing.
 */
export function objectFor(schema: Json, shape: Shape, ctx: Context): fc.Arbitrary<Json> | undefined {
  const required = new Set<string>(schema.required ?? []);
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  const optional: string[] = [];
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Json)) {
    const arb = valueFor(raw as Json, shape, ctx, name);
    if (!arb) {
      if (required.has(name)) return undefined;
      continue;
    }
    parts[name] = arb;
    // An id the context gives is always sent: a body that names one of the account's resources is the useful case.
    if (!required.has(name) && !(name in ctx.given)) optional.push(name);
    if (name in ctx.given) required.add(name);
  }
  const keep: fc.Arbitrary<string[]> = shape === 'longest' ? fc.constant(optional) : shape === 'shortest' ? fc.constant([]) : fc.subarray(optional);
  return fc.tuple(fc.record(parts), keep).map(([full, kept]) => {
    const out: Json = {};
    for (const [k, v] of Object.entries(full)) if (required.has(k) || kept.includes(k) || conditionallyRequired(schema, full).has(k)) out[k] = v;
    // An update takes at least minProperties fields: the first optional ones make up the count.
    for (const k of optional) if (Object.keys(out).length < (schema.minProperties ?? 0)) out[k] = full[k];
    return out;
  });
}

/** The fields an `if`/`then` of the schema requires of this object. */
function conditionallyRequired(schema: Json, body: Json): Set<string> {
  const out = new Set<string>();
  for (const rule of [schema, ...((schema.allOf ?? []) as Json[])]) {
    const condition = rule.if as Json | undefined;
    if (!condition) continue;
    const holds = Object.entries((condition.properties ?? {}) as Json).every(([k, p]) => (Array.isArray(p.enum) ? p.enum.includes(body[k]) : k in body));
    if (holds) for (const r of (rule.then?.required ?? []) as string[]) out.add(r);
  }
  return out;
}

const EXTRA = 'unexpectedField';

/**
 * Each constraint of each field broken once, the rest of the body valid: lengths one past
 * their bounds, a pattern missed, a value outside the enum, the wrong type, a number past
 * its bounds, too many or too few items, a repeated item, a required field left out, and
 * one extra field on every closed object.
 */
export function brokenConstraints(schema: Json): BrokenConstraint[] {
  const out: BrokenConstraint[] = [];
  if (schema.additionalProperties === false) out.push({ label: `additionalProperties false`, field: EXTRA, value: 1 });
  if ((schema.minProperties ?? 0) >= 1) out.push({ label: `minProperties ${schema.minProperties}`, field: '', value: undefined });
  for (const f of fieldsOf(schema)) {
    const field = f.path.join('.');
    const s = f.schema;
    const push = (label: string, value: unknown, omit = false) => out.push({ label: `${field}: ${label}`, field, value, omit });
    if (f.required) push('required', undefined, true);
    if (Array.isArray(s.enum)) {
      push('enum', 'not-a-listed-value');
      continue;
    }
    if (s.type === 'string') {
      push('type string', 42);
      if (s.format === 'uuid') push('format uuid', 'not-a-uuid');
      if (typeof s.maxLength === 'number') push(`maxLength ${s.maxLength}`, overLong(s));
      if ((s.minLength ?? 0) >= 1) push(`minLength ${s.minLength}`, '');
      if (s.pattern === '\\S') push('pattern \\S', '   ');
      else if (typeof s.pattern === 'string') push(`pattern ${s.pattern}`, missesPattern(s.pattern));
    } else if (s.type === 'integer') {
      push('type integer', 1.5);
      if (typeof s.minimum === 'number') push(`minimum ${s.minimum}`, s.minimum - 1);
      if (typeof s.maximum === 'number') push(`maximum ${s.maximum}`, s.maximum + 1);
    } else if (s.type === 'array') {
      push('type array', 'not-an-array');
      const item = validItem(s.items ?? {});
      if (typeof s.maxItems === 'number' && item !== undefined) push(`maxItems ${s.maxItems}`, Array.from({ length: s.maxItems + 1 }, (_, i) => distinct(item, i)));
      if ((s.minItems ?? 0) >= 1) push(`minItems ${s.minItems}`, []);
      if (s.uniqueItems && item !== undefined) push('uniqueItems', [item, item]);
      // An item breaking its own constraints, in an array that is otherwise valid.
      const items = nonNull(s.items ?? {}).schema;
      if (items.type === 'string' && !Array.isArray(items.enum)) {
        const pushItem = (label: string, value: unknown) => out.push({ label: `${field}[]: ${label}`, field, value: [value] });
        pushItem('type string', 42);
        if (typeof items.maxLength === 'number') pushItem(`maxLength ${items.maxLength}`, overLong(items));
        if ((items.minLength ?? 0) >= 1) pushItem(`minLength ${items.minLength}`, '');
      }
    } else if (s.type === 'object') {
      push('type object', 'not-an-object');
      if (s.additionalProperties === false) out.push({ label: `${field}: additionalProperties false`, field: `${field}.${EXTRA}`, value: 1 });
    }
  }
  return out;
}

/** One character more than the maximum, all plain (so that only the length is wrong, whatever a server counts). */
function overLong(s: Json): string {
  const n = (s.maxLength as number) + 1;
  if (s.pattern === '^[a-z0-9]+(-[a-z0-9]+)*$') return 'a'.repeat(n);
  if (typeof s.pattern === 'string' && s.pattern.startsWith('^https://')) return `https://example.com/${'p'.repeat(n - 20)}`;
  if (s.format === 'email' || (typeof s.pattern === 'string' && s.pattern.includes('@'))) return `${'a'.repeat(Math.max(1, n - 12))}@example.com`;
  return 'x'.repeat(n);
}

function missesPattern(pattern: string): string {
  const candidates = ['Not A Slug!', 'http://example.com/plain-http', 'not-an-email', '   ', '-'];
  return candidates.find((c) => !new RegExp(pattern, 'u').test(c)) ?? '';
}

function validItem(items: Json): unknown {
  const { schema } = nonNull(items);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'string') return 'item';
  if (schema.type === 'integer') return schema.minimum ?? 1;
  return undefined;
}

function distinct(item: unknown, i: number): unknown {
  return typeof item === 'string' ? `${item}${i}` : item;
}

export { codePoints };
