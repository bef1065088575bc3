import fc, { type Arbitrary } from 'fast-check';

type Json = Record<string, any>;

/** Resolves a local `$ref` (`#/components/...`) inside the document it came from. */
export type Resolve = (ref: string) => Json;

/** Values for fields and parameters that name a resource: ids the fuzzer has seen the server hand out. */
export type KnownIds = (name: string) => Arbitrary<string> | undefined;

const MAX_DEPTH = 8;

/**
 * A fast-check arbitrary of values a JSON Schema (OpenAPI 3.1 dialect) accepts, in the way
 * Hypothesis drives Schemathesis: biased towards edge cases (bounds, empty and longest
 * strings, unicode). It covers what the contracts use (types and type lists, enum, const,
 * allOf by merging, oneOf/anyOf, formats, patterns, bounds, uniqueItems); conditionals
 * (`if`/`then`) are not solved, so some generated values are refused: the server must still
 * answer those with a documented error, which is what the fuzzer checks.
 */
export function valid(schema: Json, resolve: Resolve, known: KnownIds, name = '', depth = 0): Arbitrary<unknown> {
  const s = flatten(schema, resolve);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.oneOf ?? s.anyOf) as Json[] | undefined;
  if (alternatives) {
    const { oneOf: _o, anyOf: _a, ...base } = s;
    return fc.oneof(...alternatives.map((alt) => valid({ allOf: [base, alt] }, resolve, known, name, depth + 1)));
  }
  const types = typesOf(s);
  if (types.length > 1) return fc.oneof(...types.map((type) => valid({ ...s, type }, resolve, known, name, depth + 1)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integer(s);
    case 'number':
      return fc.oneof(integer(s), fc.double({ min: s.minimum ?? s.exclusiveMinimum ?? -1e9, max: s.maximum ?? s.exclusiveMaximum ?? 1e9, noNaN: true, noDefaultInfinity: true }).filter((n) => inBounds(s, n)));
    case 'string':
      return withKnown(string(s), known, name, s);
    case 'array':
      return array(s, resolve, known, name, depth);
    case 'object':
      return object(s, resolve, known, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Object and string keywords of every member of an allOf, merged; `$ref`s followed. */
export function flatten(schema: Json, resolve: Resolve): Json {
  let s = schema ?? {};
  for (let i = 0; typeof s.$ref === 'string' && i < 20; i++) {
    const { $ref, ...siblings } = s;
    s = { ...resolve($ref as string), ...siblings };
  }
  const own = s.if ? [{ if: s.if, then: s.then, else: s.else }] : [];
  if (!Array.isArray(s.allOf)) return own.length > 0 ? { ...s, [CONDITIONALS]: own } : s;
  const { allOf, ...rest } = s;
  let merged: Json = { ...rest };
  const conditionals: Json[] = [...own];
  for (const part of allOf as Json[]) {
    const p = flatten(part, resolve);
    conditionals.push(...((p[CONDITIONALS] ?? []) as Json[]));
    merged = {
      ...p,
      ...merged,
      properties: { ...(p.properties ?? {}), ...(merged.properties ?? {}) },
      required: [...new Set([...(merged.required ?? []), ...(p.required ?? [])])],
    };
  }
  if (Object.keys(merged.properties).length === 0) delete merged.properties;
  if (merged.required.length === 0) delete merged.required;
  if (conditionals.length > 0) merged[CONDITIONALS] = conditionals;
  return merged;
}

/** Where flatten gathers the `if`/`then`/`else` of a schema and of its allOf members. */
const CONDITIONALS = 'x-fuzz-conditionals';

export function typesOf(s: Json): string[] {
  if (Array.isArray(s.type)) return s.type as string[];
  if (typeof s.type === 'string') return [s.type];
  if (s.properties || s.required || s.additionalProperties !== undefined) return ['object'];
  if (s.items) return ['array'];
  if (s.pattern || s.format || s.minLength !== undefined || s.maxLength !== undefined) return ['string'];
  return [];
}

function inBounds(s: Json, n: number): boolean {
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) return false;
  if (typeof s.exclusiveMaximum === 'number' && n >= s.exclusiveMaximum) return false;
  return true;
}

function integer(s: Json): Arbitrary<number> {
  const min = typeof s.exclusiveMinimum === 'number' ? Math.floor(s.exclusiveMinimum) + 1 : (s.minimum as number | undefined);
  const max = typeof s.exclusiveMaximum === 'number' ? Math.ceil(s.exclusiveMaximum) - 1 : (s.maximum as number | undefined);
  return fc.integer({ min: Math.ceil(min ?? -(2 ** 31)), max: Math.floor(max ?? 2 ** 31) });
}

function string(s: Json): Arbitrary<string> {
  const minLength = (s.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((s.maxLength as number | undefined) ?? minLength + 64, minLength + 2000);
  const fits = (v: string) => [...v].length >= minLength && [...v].length <= maxLength;
  switch (s.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'uri':
    case 'url':
      return fc.webUrl({ withQueryParameters: true }).filter(fits);
  }
  if (typeof s.pattern === 'string') {
    const pattern = new RegExp(s.pattern as string, 'u');
    // Patterns the contracts use are anchored; a long unanchored match is clipped back into bounds.
    return fc.stringMatching(pattern).filter(fits);
  }
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }).filter(fits),
    fc.string({ minLength, maxLength, unit: 'binary' }),
  );
}

function withKnown(generated: Arbitrary<string>, known: KnownIds, name: string, s: Json): Arbitrary<string> {
  const ids = known(name);
  if (!ids || s.enum || 'const' in s) return generated;
  // Mostly real ids, so requests reach the handlers behind the lookups.
  return fc.oneof({ arbitrary: ids, weight: 4 }, { arbitrary: generated, weight: 1 });
}

function array(s: Json, resolve: Resolve, known: KnownIds, name: string, depth: number): Arbitrary<unknown[]> {
  const minLength = (s.minItems as number | undefined) ?? 0;
  const maxLength = Math.min((s.maxItems as number | undefined) ?? minLength + 4, minLength + 8);
  const items = valid(s.items ?? {}, resolve, known, singular(name), depth + 1);
  return s.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
}

function object(s: Json, resolve: Resolve, known: KnownIds, depth: number): Arbitrary<Json> {
  const properties = (s.properties ?? {}) as Json;
  const required = ((s.required ?? []) as string[]).filter((k) => k in properties);
  const model: Record<string, Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) model[key] = valid(sub as Json, resolve, known, key, depth + 1);
  // Required names that no property describes still have to be sent.
  for (const key of (s.required ?? []) as string[]) if (!(key in model)) model[key] = fc.jsonValue({ maxDepth: 1 });
  const requiredKeys = [...new Set([...required, ...((s.required ?? []) as string[])])];
  const conditionals = (s[CONDITIONALS] ?? []) as Json[];
  if (conditionals.length === 0) return fc.record(model, { requiredKeys });
  // Conditionals (`if`/`then`/`else`) are met by drawing every property, choosing the optional
  // ones, then adding, dropping or fixing the ones each branch that applies names.
  const optional = Object.keys(model).filter((k) => !requiredKeys.includes(k));
  return fc.tuple(fc.record(model), fc.subarray(optional)).map(([full, chosen]) => meetConditionals(conditionals, full, [...requiredKeys, ...chosen]));
}

function meetConditionals(conditionals: Json[], full: Json, keys: string[]): Json {
  const value: Json = Object.fromEntries(keys.map((k) => [k, full[k]]));
  for (const c of conditionals) {
    const branch = (matches(c.if, value) ? c.then : c.else) as Json | undefined;
    if (!branch) continue;
    for (const k of (branch.required ?? []) as string[]) if (!(k in value) && k in full) value[k] = full[k];
    for (const [k, sub] of Object.entries((branch.properties ?? {}) as Json)) {
      if (sub === false) delete value[k];
      else if (!(k in value) || typeof sub !== 'object') continue;
      else if ('const' in sub) value[k] = sub.const;
      else if (typeof sub.minimum === 'number' && typeof value[k] === 'number' && value[k] < sub.minimum) value[k] = sub.minimum;
      else if (typeof sub.pattern === 'string' && typeof value[k] === 'string' && !new RegExp(sub.pattern as string, 'u').test(value[k])) value[k] = `x${(value[k] as string).slice(1)}`;
    }
  }
  return value;
}

/** The `if` keywords the contracts use: required names, and const, not-const and enum of properties. */
function matches(condition: Json | undefined, value: Json): boolean {
  if (!condition) return false;
  if (((condition.required ?? []) as string[]).some((k) => !(k in value))) return false;
  return Object.entries((condition.properties ?? {}) as Json).every(([k, sub]) => {
    if (!(k in value)) return true;
    if ('const' in sub) return value[k] === sub.const;
    if (sub.not && 'const' in sub.not) return value[k] !== sub.not.const;
    if (Array.isArray(sub.enum)) return sub.enum.includes(value[k]);
    return true;
  });
}

function singular(name: string): string {
  return name.endsWith('Ids') ? name.slice(0, -1) : name;
}
