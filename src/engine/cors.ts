import type { Reply } from '../operations/context.js';

/** Lets a browser front end on another origin call the simulator and read its headers. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Correlation-Id, Location, Content-Disposition, WWW-Authenticate',
};

export function preflightResponse(): Reply {
  return {
    status: 204,
    headers: {
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key',
      'access-control-max-age': '600',
    },
  };
}
