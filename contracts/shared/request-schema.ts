import { CONTRACT_FILES, readContractDocument } from './openapi-model.js';

type Json = Record<string, any>;

/** What openapi.yaml says of each operation's JSON request body, and its error codes. */
export interface RequestSchemas {
  /** operationId → the top-level fields of its JSON request body. */
  bodyFields: Map<string, string[]>;
  /** operationId → the required ones among them. */
  requiredFields: Map<string, string[]>;
  /** Every error code of the contract (components.schemas.ErrorCode). */
  errorCodes: string[];
}

const cache = new Map<string, RequestSchemas>();

export function readRequestSchemas(file = CONTRACT_FILES.service): RequestSchemas {
  const cached = cache.get(file);
  if (cached) return cached;
  const doc = readContractDocument(file);
  const deref = (node: Json): Json => (node?.$ref ? deref((node.$ref as string).slice(2).split('/').reduce((n: Json, k: string) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc)) : node);
  const result: RequestSchemas = { bodyFields: new Map(), requiredFields: new Map(), errorCodes: (doc.components?.schemas?.ErrorCode?.enum as string[] | undefined) ?? [] };
  for (const item of Object.values((doc.paths ?? {}) as Json)) {
    for (const op of Object.values(item as Json)) {
      if (!op?.operationId || !op.requestBody) continue;
      const schema = deref(deref(op.requestBody).content?.['application/json']?.schema ?? {});
      const fields = new Set(Object.keys(schema.properties ?? {}));
      // Members of allOf/oneOf/anyOf (a body in several shapes) add their fields.
      for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])] as Json[]) for (const f of Object.keys(deref(part).properties ?? {})) fields.add(f);
      result.bodyFields.set(op.operationId, [...fields]);
      if (Array.isArray(schema.required)) result.requiredFields.set(op.operationId, schema.required as string[]);
    }
  }
  cache.set(file, result);
  return result;
}
