import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

export type { ErrorObject, ValidateFunction };

/**
 * An ajv for OpenAPI 3.1 schemas (JSON Schema 2020-12). OpenAPI's own keywords (`example`,
 * `x-inferred`, …) are not JSON Schema, so strict mode is off; the documents are linted
 * by Redocly instead.
 */
export function createAjv(options: { coerceTypes?: boolean; standaloneSource?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: options.coerceTypes ?? false,
    useDefaults: options.coerceTypes ?? false,
    validateSchema: false,
    // Build time only (scripts/compile-validators.ts): keep each validator's source for standalone code.
    ...(options.standaloneSource ? { code: { source: true, esm: true } } : {}),
  });
  addFormats(ajv);
  return ajv;
}
