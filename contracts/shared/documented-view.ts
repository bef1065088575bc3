/**
 * The `documented` view of an OpenAPI document: what remains when every element marked
 * `x-inferred: true` is set aside, so that a check at this level holds the service only to
 * what the specification states.
 *
 * - a schema marked x-inferred accepts anything; a property whose schema is (or refers to)
 *   an inferred schema is no longer required;
 * - `additionalProperties: false` is dropped: the spec never says a resource has no other
 *   fields (a target is "the target object including id, name, slug, and further fields");
 * - `oneOf` becomes `anyOf`, since relaxed alternatives may overlap;
 * - responses, headers and operations keep their mark: the validator reads it there.
 */

type Json = Record<string, any>;

/** The spec's error object (Resources, Error object), all that `documented` asks of an error answered with an inferred status. */
export const SPEC_ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'code', 'details'],
  properties: { error: { type: 'string' }, code: { type: 'string' }, details: { type: 'object' } },
};

export function documentedView(doc: Json): Json {
  const copy = structuredClone(doc) as Json;
  const inferredComponents = new Set(
    Object.entries((copy.components?.schemas ?? {}) as Json)
      .filter(([, s]) => isObject(s) && s['x-inferred'] === true)
      .map(([name]) => `#/components/schemas/${name}`),
  );
  const relax = (schema: unknown): unknown => relaxSchema(schema, inferredComponents);
  for (const [name, schema] of Object.entries((copy.components?.schemas ?? {}) as Json)) copy.components.schemas[name] = relax(schema);
  for (const response of Object.values((copy.components?.responses ?? {}) as Json)) relaxResponse(response, relax);
  for (const item of Object.values((copy.paths ?? {}) as Json)) {
    for (const op of Object.values(item as Json)) {
      if (!isObject(op) || !isObject(op.responses)) continue;
      for (const response of Object.values(op.responses as Json)) relaxResponse(response, relax);
    }
  }
  return copy;
}

function relaxResponse(response: unknown, relax: (s: unknown) => unknown): void {
  if (!isObject(response) || typeof response.$ref === 'string') return;
  for (const media of Object.values((response.content ?? {}) as Json)) {
    if (isObject(media) && media.schema) media.schema = relax(media.schema);
  }
}

function relaxSchema(schema: unknown, inferredComponents: ReadonlySet<string>): unknown {
  if (!isObject(schema)) return schema;
  if (schema['x-inferred'] === true) return {};
  if (typeof schema.$ref === 'string') return schema;
  const out: Json = { ...schema };
  if (out.additionalProperties === false) delete out.additionalProperties;
  if (out.unevaluatedProperties === false) delete out.unevaluatedProperties;
  if (isObject(out.properties)) {
    const inferred = new Set<string>();
    const properties: Json = {};
    for (const [name, property] of Object.entries(out.properties as Json)) {
      if (isInferred(property, inferredComponents)) inferred.add(name);
      properties[name] = relaxSchema(property, inferredComponents);
    }
    out.properties = properties;
    if (Array.isArray(out.required)) out.required = (out.required as string[]).filter((name) => !inferred.has(name));
  }
  for (const key of ['items', 'not', 'additionalProperties', 'contains']) {
    if (isObject(out[key])) out[key] = relaxSchema(out[key], inferredComponents);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((s) => relaxSchema(s, inferredComponents));
  }
  // Relaxed alternatives overlap (an inferred one accepts anything): "exactly one" becomes "at least one".
  if (Array.isArray(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  return out;
}

/** A property is inferred when marked so, or when it is a bare reference to an inferred schema. */
function isInferred(property: unknown, inferredComponents: ReadonlySet<string>): boolean {
  if (!isObject(property)) return false;
  if (property['x-inferred'] === true) return true;
  return typeof property.$ref === 'string' && inferredComponents.has(property.$ref);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
