/** A schema taken out of its document, its local $refs anchored to the document's id, so one Ajv instance can hold every document's schemas. */
export function anchorRefs(schema: unknown, docId: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => anchorRefs(s, docId));
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${docId}${v}` : anchorRefs(v, docId)]),
    );
  }
  return schema;
}

/** A path segment escaped for a JSON pointer (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
