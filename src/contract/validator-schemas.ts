import type { Operation, ParameterSpec } from './operations.js';

export type ValidatorPart = ParameterSpec['in'] | 'body';

/** The name of one request validator: the same at build time (standalone code) and at run time. */
export function validatorKey(operation: Pick<Operation, 'documentId' | 'operationId'>, part: ValidatorPart): string {
  return `${operation.documentId}:${operation.operationId}:${part}`;
}

/** The schema a location's parameters are checked against: one object, its names as properties. */
export function parameterSchema(operation: Operation, location: ParameterSpec['in']): object {
  const specs = operation.parameters.filter((p) => p.in === location);
  const properties = Object.fromEntries(specs.map((p) => [p.name, withDocumentRefs(p.schema, operation.documentId)]));
  const required = specs.filter((p) => p.required).map((p) => p.name);
  return { type: 'object', properties, required };
}

/** The schema a JSON body is checked against, by reference into its document; null without a body. */
export function bodySchema(operation: Operation): object | null {
  return operation.bodySchemaPointer ? { $ref: `${operation.documentId}${operation.bodySchemaPointer}` } : null;
}

/** Parameter schemas are copied out of their document, so their local $refs must name it. */
function withDocumentRefs(schema: unknown, documentId: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => withDocumentRefs(s, documentId));
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${documentId}${v}` : withDocumentRefs(v, documentId)]),
    );
  }
  return schema;
}
