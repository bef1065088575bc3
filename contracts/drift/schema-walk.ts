import type { OperationInfo } from '../shared/openapi-model.js';

type Json = Record<string, any>;

/**
 * Where openapi.yaml enumerates a response's values: a walk of a JSON answer beside the schemas
 * its operation documents for its status, answering for each position whether its value is one
 * of a fixed set (`enum` or `const`). Branches (allOf, oneOf, anyOf) are all followed: a value
 * is enumerated when any schema that may describe it says so.
 */
export class ResponseSchemas {
  constructor(private readonly doc: Json) {}

  /** The documented headers of the operation's answer with this status, lower-cased. */
  headers(operation: OperationInfo | undefined, status: number): Set<string> {
    const response = this.response(operation, status);
    return new Set(Object.keys(response?.headers ?? {}).map((h) => h.toLowerCase()));
  }

  /** The schemas of the JSON body of the operation's answer with this status. */
  bodySchemas(operation: OperationInfo | undefined, status: number): Json[] {
    const response = this.response(operation, status);
    const content = (response?.content ?? {}) as Json;
    const media = Object.keys(content).find((m) => m.includes('json'));
    return media && content[media]?.schema ? this.expand(content[media].schema) : [];
  }

  /** The schemas of a property (or of the items, for `[]`) of a value described by `schemas`. */
  child(schemas: Json[], key: string | '[]'): Json[] {
    const out: Json[] = [];
    for (const s of schemas) {
      const next = key === '[]' ? (s.items ?? (Array.isArray(s.prefixItems) ? s.prefixItems[0] : undefined)) : (s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined));
      if (next) out.push(...this.expand(next));
    }
    return out;
  }

  isEnumerated(schemas: Json[]): boolean {
    return schemas.some((s) => Array.isArray(s.enum) || s.const !== undefined);
  }

  /** Every value the schemas enumerate. */
  enumValues(schemas: Json[]): Set<unknown> {
    return new Set(schemas.flatMap((s) => [...(Array.isArray(s.enum) ? s.enum : []), ...(s.const !== undefined ? [s.const] : [])]));
  }

  private response(operation: OperationInfo | undefined, status: number): Json | undefined {
    if (!operation) return undefined;
    const op = this.doc.paths?.[operation.path]?.[operation.method.toLowerCase()];
    const responses = (op?.responses ?? {}) as Json;
    const found = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    return found ? this.resolve(found) : undefined;
  }

  /** A schema with its $ref followed and its allOf/oneOf/anyOf branches laid out beside it. */
  private expand(schema: Json, depth = 0): Json[] {
    const s = this.resolve(schema);
    if (!s || depth > 8) return [];
    const out = [s];
    for (const branch of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])]) out.push(...this.expand(branch, depth + 1));
    return out;
  }

  private resolve(node: Json): Json {
    let current = node;
    for (let i = 0; current?.$ref && i < 16; i++) {
      current = (current.$ref as string)
        .slice(2)
        .split('/')
        .reduce((n: Json, k: string) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    }
    return current;
  }
}
