import type { Operation } from '../contract/operations.js';
import { validationError } from '../errors/api-error.js';
import { bodyLimitFor, jsonBodyBytes, readJsonBody, readYamlBody } from './http-body.js';
import { originRelative } from './request-facts.js';
import type { RequestValidator, ValidatedParameters } from './request-validation.js';
import type { EngineRequest } from './types.js';

const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});

/** A query string's values, the first of each name. */
function queryValues(query: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(query)) if (!(name in values)) values[name] = value;
  return values;
}

/** An operation's path, query and header parameters, checked against its contract. */
export function readParameters(validator: RequestValidator, operation: Operation, pathParams: Record<string, string>, query: string, request: EngineRequest): ValidatedParameters {
  return validator.parameters(operation, pathParams, query ? queryValues(query) : NO_QUERY, request.headers);
}

/**
 * An operation's body, read within the size limit of its path and checked against its schema
 * (or its bytes, for an operation that reads its body in slices itself); undefined when it takes none.
 */
export function readBody(validator: RequestValidator, operation: Operation, request: EngineRequest, readYaml?: (text: string) => unknown): unknown {
  if (!operation.bodySchemaPointer) return undefined;
  const limit = bodyLimitFor(originRelative(request.url));
  if (operation.bodyInSlices) {
    const bytes = jsonBodyBytes(request.headers['content-type'], request.body, limit);
    if (bytes === undefined && operation.bodyRequired) throw validationError([{ path: 'body', message: 'is required: send a JSON object' }]);
    return bytes;
  }
  const yaml = operation.bodyYaml ? readYamlBody(request.headers['content-type'], request.body, limit, readYaml) : undefined;
  const body = yaml ? yaml.value : readJsonBody(request.headers['content-type'], request.body, limit);
  if (body === undefined) {
    if (operation.bodyRequired) throw validationError([{ path: 'body', message: 'is required: send a JSON object' }]);
    return undefined;
  }
  validator.body(operation, body);
  return body;
}
