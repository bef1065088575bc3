/**
 * Rewrites a tool's JSON Schema into the spelling that function-calling converters accept
 * (the MCP Inspector's `--strict` portability rules), without changing what it admits:
 * - a bare `false` schema becomes `{ not: {} }` (a bare `true`, like `{}`, is treated below);
 * - `type: ["string", "null"]` becomes `anyOf: [{ type: "string" }, { type: "null" }]`;
 * - a property entry that constrains nothing (`targetId: {}` in a branch that only names its
 *   required property) is dropped when nothing else in that schema depends on its presence;
 * - any other schema that constrains nothing says so explicitly: any of the six JSON types.
 * The boolean values of `additionalProperties` and its kin stay: every converter reads them.
 */
type Json = Record<string, unknown>;

const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const SINGLE = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'contentSchema'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
/** The keywords that restrict an instance (`if` counts only with `then` or `else`). */
const CONSTRAINING = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema', 'maxItems', 'minItems', 'uniqueItems', 'maxContains',
  'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items',
  'prefixItems', 'contains', 'additionalItems', 'unevaluatedItems', 'properties', 'patternProperties', 'additionalProperties',
  'unevaluatedProperties', 'propertyNames', 'dependentSchemas', 'dependencies', '$ref', '$dynamicRef', '$recursiveRef',
]);
const ANY_JSON_VALUE = ['object', 'array', 'string', 'number', 'boolean', 'null'].map((type) => ({ type }));
/** Deeper than any schema of the contract: a guard against a reference loop written inline. */
const MAX_DEPTH = 64;

export function portableSchema<T extends Json>(schema: T): T {
  // `unevaluatedProperties` sees the names a subschema's `properties` lists: none may be dropped then.
  const mayDropEntries = !JSON.stringify(schema).includes('"unevaluatedProperties"');
  return rewrite(schema, undefined, 0, mayDropEntries) as T;
}

function rewrite(node: unknown, keyword: string | undefined, depth: number, mayDropEntries: boolean): unknown {
  if (depth > MAX_DEPTH) return node;
  if (typeof node === 'boolean') {
    if (keyword !== undefined && BOOLEAN_VALUED.has(keyword)) return node;
    return node ? rewrite({}, keyword, depth, mayDropEntries) : { not: {} };
  }
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const out: Json = { ...(node as Json) };
  const child = (value: unknown, key: string) => rewrite(value, key, depth + 1, mayDropEntries);

  for (const key of MAPS) {
    const map = out[key];
    if (!map || typeof map !== 'object' || Array.isArray(map)) continue;
    out[key] = Object.fromEntries(Object.entries(map as Json).map(([name, sub]) => [name, child(sub, key)]));
  }
  for (const key of LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((sub) => child(sub, key));
  for (const key of SINGLE) {
    if (!(key in out)) continue;
    out[key] = key === 'items' && Array.isArray(out[key]) ? (out[key] as unknown[]).map((sub) => child(sub, key)) : child(out[key], key);
  }

  if (mayDropEntries) dropUnconstrainedProperties(out);
  splitTypeUnion(out);
  if (!constrains(out) && keyword !== 'not') out.anyOf = ANY_JSON_VALUE.map((branch) => ({ ...branch }));
  return out;
}

/** `properties: { x: {} }` admits what its absence admits, unless `additionalProperties` or `patternProperties` beside it read the names. */
function dropUnconstrainedProperties(node: Json): void {
  const properties = node.properties as Json | undefined;
  if (!properties || typeof properties !== 'object' || 'additionalProperties' in node || 'patternProperties' in node) return;
  for (const [name, sub] of Object.entries(properties)) {
    if (sub && typeof sub === 'object' && !Array.isArray(sub) && isAnyValue(sub as Json)) delete properties[name];
  }
  if (Object.keys(properties).length === 0) delete node.properties;
}

/** What `rewrite` makes of `{}`: the any-type union alone (an entry with a description stays, for its words). */
function isAnyValue(node: Json): boolean {
  return Object.keys(node).length === 1 && JSON.stringify(node.anyOf) === JSON.stringify(ANY_JSON_VALUE);
}

function splitTypeUnion(node: Json): void {
  const type = node.type;
  if (!Array.isArray(type)) return;
  delete node.type;
  const union = { anyOf: type.map((t) => ({ type: t })) };
  if (node.anyOf === undefined) node.anyOf = union.anyOf;
  else node.allOf = [...((node.allOf as unknown[] | undefined) ?? []), union];
}

function constrains(node: Json): boolean {
  return Object.keys(node).some((key) => CONSTRAINING.has(key)) || ('if' in node && ('then' in node || 'else' in node));
}
