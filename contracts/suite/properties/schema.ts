import { CONTRACT_FILES, readContractDocument } from '../../shared/openapi-model.js';

export type Json = Record<string, any>;

/**
 * A request body's schema from openapi.yaml, with every $ref resolved (the document is not
 * changed: resolved nodes are copies). `oneOf: [X, {type: null}]` stays as it is: a field
 * that may be null is known by `nullable`.
 */
export function requestBodySchema(operationId: string, file = CONTRACT_FILES.service): Json | undefined {
  const doc = readContractDocument(file);
  for (const item of Object.values((doc.paths ?? {}) as Json)) {
    for (const op of Object.values(item as Json)) {
      if (op?.operationId !== operationId || !op.requestBody) continue;
      const body = resolve(doc, op.requestBody);
      return resolve(doc, body.content?.['application/json']?.schema ?? {});
    }
  }
  return undefined;
}

/** A copy of a node with its $refs replaced by what they name, all the way down. */
export function resolve(doc: Json, node: any, depth = 0): any {
  if (depth > 20 || node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => resolve(doc, n, depth + 1));
  if (typeof node.$ref === 'string') {
    const target = (node.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce((n: Json, part: string) => n?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    const { $ref: _, ...siblings } = node;
    return resolve(doc, { ...target, ...siblings }, depth + 1);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(doc, v, depth + 1)]));
}

/** The schema of a field that may also be null (`oneOf: [X, {type: null}]`), and whether it may. */
export function nonNull(schema: Json): { schema: Json; nullable: boolean } {
  const parts = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (parts?.length === 2 && parts.some((p) => p.type === 'null')) return { schema: parts.find((p) => p.type !== 'null') as Json, nullable: true };
  if (Array.isArray(schema.type) && schema.type.includes('null')) return { schema: { ...schema, type: schema.type.find((t: string) => t !== 'null') }, nullable: true };
  return { schema, nullable: false };
}

/** One constraint of one field (or of the body) broken once, and the field a refusal must name. */
export interface BrokenConstraint {
  /** `name: maxLength 120`, `brandKit.seo: additionalProperties false`. */
  label: string;
  /** The field's path in the body, dotted (`brandKit.seo.primaryKeywords`). */
  field: string;
  value: unknown;
  /** Leave the field out rather than set it (a required field). */
  omit?: boolean;
}

/**
 * Where a schema's object fields are, walked from the body: each with its schema, the path to
 * it and whether its parent requires it. Arrays are walked into their items as `path[]`.
 */
export interface FieldAt {
  path: string[];
  schema: Json;
  required: boolean;
}

export function fieldsOf(schema: Json, path: string[] = []): FieldAt[] {
  const out: FieldAt[] = [];
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Json)) {
    const { schema: field } = nonNull(raw as Json);
    out.push({ path: [...path, name], schema: field, required: required.has(name) });
    if (field.type === 'object') out.push(...fieldsOf(field, [...path, name]));
  }
  return out;
}

/** Sets a dotted path in a copy of a body, making the objects on the way. */
export function withField(body: Json, path: string[], value: unknown, omit = false): Json {
  const copy = structuredClone(body);
  let node: Json = copy;
  for (const part of path.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part];
  }
  const last = path.at(-1) as string;
  if (omit) delete node[last];
  else node[last] = value;
  return copy;
}
