import fc, { type Arbitrary } from 'fast-check';
import { flatten, typesOf, valid, type KnownIds, type Resolve } from './schema-arbitrary.js';

type Json = Record<string, any>;

const MAX_DEPTH = 6;

/** One JSON value of each kind, for values of the wrong type. */
const ANY_KIND: Record<string, Arbitrary<unknown>> = {
  null: fc.constant(null),
  boolean: fc.boolean(),
  integer: fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 53, -(2 ** 31) - 1)),
  number: fc.constantFrom(1.5, -0.25, 1e308),
  string: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', '0', 'true', 'null', '../..', '%00', '\u0000', '<script>', '\ud800')),
  array: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
};

/**
 * Values a schema refuses, as Schemathesis's negative mode makes them: the wrong type, a
 * bound crossed by one, a pattern, format or enum missed, a required property dropped, an
 * unknown property where none is allowed, and the same one level down inside objects and
 * arrays. Some candidates may still be valid (a union that accepts the "wrong" type): the
 * caller keeps only those its validator refuses.
 */
export function invalid(schema: Json, resolve: Resolve, known: KnownIds, depth = 0): Arbitrary<unknown> {
  const s = flatten(schema, resolve);
  const candidates: Arbitrary<unknown>[] = [];
  const types = typesOf(s);
  const wrong = Object.entries(ANY_KIND)
    .filter(([kind]) => types.length > 0 && !types.includes(kind) && !(kind === 'integer' && types.includes('number')))
    .map(([, arb]) => arb);
  if (wrong.length > 0) candidates.push(fc.oneof(...wrong));
  if (Array.isArray(s.enum) || 'const' in s) candidates.push(fc.string({ maxLength: 12 }).map((v) => `${v}~not-listed`));
  if (types.includes('string')) candidates.push(...strings(s));
  if (types.includes('integer') || types.includes('number')) candidates.push(...numbers(s, types));
  if (types.includes('array') && depth < MAX_DEPTH) candidates.push(...arrays(s, resolve, known, depth));
  if (types.includes('object') && depth < MAX_DEPTH) candidates.push(...objects(s, resolve, known, depth));
  for (const alt of (s.oneOf ?? s.anyOf ?? []) as Json[]) if (depth < MAX_DEPTH) candidates.push(invalid(alt, resolve, known, depth + 1));
  return candidates.length > 0 ? fc.oneof(...candidates) : fc.oneof(...Object.values(ANY_KIND));
}

function strings(s: Json): Arbitrary<unknown>[] {
  const out: Arbitrary<unknown>[] = [];
  if (typeof s.maxLength === 'number') out.push(fc.constantFrom('a', 'é', '𝄞').map((c) => c.repeat(s.maxLength + 1)));
  if (typeof s.minLength === 'number' && s.minLength > 0) out.push(fc.constant('x'.repeat(s.minLength - 1)));
  if (typeof s.pattern === 'string') out.push(fc.string({ maxLength: 24 }).map((v) => `${v} !`));
  if (s.format) out.push(fc.constantFrom('not-a-' + String(s.format), '2024-13-45T99:99:99Z', 'g0000000-0000-4000-8000-000000000000', 'javascript:alert(1)', '@@'));
  return out;
}

function numbers(s: Json, types: string[]): Arbitrary<unknown>[] {
  const out: Arbitrary<unknown>[] = [];
  const max = s.maximum ?? s.exclusiveMaximum;
  const min = s.minimum ?? s.exclusiveMinimum;
  if (typeof max === 'number') out.push(fc.integer({ min: Math.floor(max) + 1, max: Math.floor(max) + 1000 }));
  if (typeof min === 'number') out.push(fc.integer({ min: Math.ceil(min) - 1000, max: Math.ceil(min) - 1 }));
  if (!types.includes('number')) out.push(fc.constantFrom(0.5, 1.000001, 1e21));
  return out;
}

function arrays(s: Json, resolve: Resolve, known: KnownIds, depth: number): Arbitrary<unknown>[] {
  const item = s.items ?? {};
  const out: Arbitrary<unknown>[] = [];
  if (typeof s.maxItems === 'number') out.push(fc.array(valid(item, resolve, known, '', depth + 1), { minLength: s.maxItems + 1, maxLength: s.maxItems + 2 }));
  if (typeof s.minItems === 'number' && s.minItems > 0) out.push(fc.array(valid(item, resolve, known, '', depth + 1), { maxLength: s.minItems - 1 }));
  if (s.uniqueItems) out.push(valid(item, resolve, known, '', depth + 1).map((v) => [v, v]));
  out.push(fc.tuple(invalid(item, resolve, known, depth + 1), fc.array(valid(item, resolve, known, '', depth + 1), { maxLength: 2 })).map(([bad, rest]) => [...rest, bad]));
  return out;
}

function objects(s: Json, resolve: Resolve, known: KnownIds, depth: number): Arbitrary<unknown>[] {
  const base = valid(s, resolve, known, '', depth + 1) as Arbitrary<Json>;
  const properties = Object.keys((s.properties ?? {}) as Json);
  const required = (s.required ?? []) as string[];
  const out: Arbitrary<unknown>[] = [];
  if (required.length > 0) {
    out.push(fc.tuple(base, fc.constantFrom(...required)).map(([obj, key]) => omit(obj, key)));
  }
  if (properties.length > 0) {
    out.push(
      fc
        .constantFrom(...properties)
        .chain((key) => fc.tuple(base, fc.constant(key), invalid(s.properties[key], resolve, known, depth + 1)))
        .map(([obj, key, bad]) => ({ ...obj, [key]: bad })),
    );
  }
  if (s.additionalProperties === false || s.unevaluatedProperties === false) {
    out.push(fc.tuple(base, fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !properties.includes(k)), fc.jsonValue({ maxDepth: 1 })).map(([obj, key, v]) => ({ ...obj, [key]: v })));
  }
  return out;
}

function omit(obj: Json, key: string): Json {
  const { [key]: _dropped, ...rest } = obj;
  return rest;
}
