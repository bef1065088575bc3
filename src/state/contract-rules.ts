import { serviceDocument } from '../contract/openapi.generated.js';

type Json = Record<string, unknown>;

/**
 * The `pattern` a property has in openapi.yaml, as a RegExp (JSON Schema patterns are
 * ECMAScript expressions, read as ajv reads them, with the `u` flag). What a restore checks
 * is then the very rule a request is checked by, and the two cannot drift apart.
 */
export function contractPattern(schema: string, property: string): RegExp {
  const schemas = ((serviceDocument as Json).components as Json).schemas as Record<string, Json | undefined>;
  const pattern = ((schemas[schema]?.properties as Record<string, Json | undefined> | undefined)?.[property])?.pattern;
  if (typeof pattern !== 'string') throw new Error(`openapi.yaml states no pattern for ${schema}.${property}`);
  return new RegExp(pattern, 'u');
}
