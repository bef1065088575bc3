/**
 * A schema as the diff needs to see it: references resolved, `allOf` merged, and the set of
 * JSON types it admits made explicit (OpenAPI 3.0's `nullable` included), so that two
 * documents written in different styles compare by meaning, not by spelling.
 */
export type Json = Record<string, any>;

export type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
export const ANY_TYPE = 'any';

export class DocumentView {
  constructor(readonly doc: Json) {}

  /** Follows local `$ref`s to the node they name; a cycle or a dangling ref gives `{}`. */
  resolve(node: unknown): Json {
    let current = node as Json;
    const seen = new Set<string>();
    while (current && typeof current === 'object' && typeof current.$ref === 'string') {
      const ref = current.$ref as string;
      if (seen.has(ref) || !ref.startsWith('#/')) return {};
      seen.add(ref);
      current = ref
        .slice(2)
        .split('/')
        .reduce((n: any, part: string) => (n == null ? n : n[part.replace(/~1/g, '/').replace(/~0/g, '~')]), this.doc);
      if (current === undefined || current === null) return {};
    }
    return (current ?? {}) as Json;
  }

  /** The resolved schema, with `allOf` members folded into one object schema. */
  schema(node: unknown): Json {
    const resolved = this.resolve(node);
    if (!Array.isArray(resolved.allOf)) return resolved;
    const merged: Json = { ...resolved, properties: { ...(resolved.properties ?? {}) }, required: [...(resolved.required ?? [])] };
    delete merged.allOf;
    for (const member of resolved.allOf as unknown[]) {
      const part = this.schema(member);
      for (const [key, value] of Object.entries(part)) {
        if (key === 'properties') Object.assign(merged.properties, value);
        else if (key === 'required') merged.required.push(...(value as string[]));
        else if (!(key in merged)) merged[key] = value;
      }
    }
    if (Object.keys(merged.properties).length === 0) delete merged.properties;
    if (merged.required.length === 0) delete merged.required;
    return merged;
  }
}

/** The JSON types a schema admits, or `any` when it does not say. */
export function typesOf(schema: Json): Set<string> {
  const types = new Set<string>();
  if (typeof schema.type === 'string') types.add(schema.type);
  else if (Array.isArray(schema.type)) for (const t of schema.type) types.add(t);
  else if (schema.properties || schema.additionalProperties !== undefined) types.add('object');
  else if (schema.items) types.add('array');
  else if (Array.isArray(schema.enum) || 'const' in schema) for (const v of enumValues(schema) ?? []) types.add(jsonType(v));
  if (schema.nullable === true) types.add('null');
  if (types.size === 0) types.add(ANY_TYPE);
  return types;
}

/** Whether a value of type `t` is admitted by `types` (an integer is a number). */
export function admits(types: Set<string>, t: string): boolean {
  return types.has(ANY_TYPE) || types.has(t) || (t === 'integer' && types.has('number'));
}

/** The values an `enum` or `const` allows, or undefined when the schema has neither. */
export function enumValues(schema: Json): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The branches of a `oneOf`/`anyOf`, or the schema itself as the only branch. */
export function variantsOf(schema: Json): unknown[] {
  if (Array.isArray(schema.oneOf)) return schema.oneOf;
  if (Array.isArray(schema.anyOf)) return schema.anyOf;
  return [schema];
}
