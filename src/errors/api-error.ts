import type { ErrorCode } from './error-codes.js';

/**
 * An error the client caused (or a fault), carrying everything its `{ error, code, details }`
 * response needs. Thrown anywhere below the engine; the engine turns it into a response.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface FieldProblem {
  path: string;
  message: string;
}

export function validationError(fields: FieldProblem[], message?: string): ApiError {
  const first = fields[0];
  const summary = message ?? (first ? `${first.path}: ${first.message}` : 'the request is not valid');
  return new ApiError(400, 'VALIDATION_ERROR', summary, { fields });
}

export function notFound(resource: string, id: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', `No ${resource} with id ${id}.`, { resource, id });
}
