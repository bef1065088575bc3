/** Every `code` an error body may carry: the spec's six, then the inferred ones. */
export const ERROR_CODES = [
  'UNAUTHORIZED',
  'INVALID_API_KEY',
  'SCOPE_REQUIRED',
  'INSUFFICIENT_TOKENS',
  'RATE_LIMITED',
  'VALIDATION_ERROR',
  'NOT_FOUND',
  'CONFLICT',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  // The simulator's memory budget is used up: it stores nothing more until room is freed.
  'CAPACITY_EXCEEDED',
  // The control API's own (simulator-control.yaml): a client it does not answer. Never on the service API.
  'FORBIDDEN',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
