import type { Reply } from './types.js';

/** Lets a browser front end on another origin call the simulator and read its headers. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Correlation-Id, Location, Content-Disposition, WWW-Authenticate, Allow, Date',
};

const BASE_ALLOWED = 'Authorization, Content-Type, Idempotency-Key';
/** A comma-separated list of header names (RFC 9110 tokens): what a browser sends in Access-Control-Request-Headers. */
const HEADER_LIST = /^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*\s*$/;

/**
 * The answer to a preflight of the service API: any method it has, and whatever request
 * headers the front end asks for (X-Request-Id, tracing headers such as `sentry-trace`,
 * `traceparent` or `baggage`), echoed back. The API answers any origin without cookies, so
 * allowing a header grants nothing a non-browser client does not already have.
 */
export function preflightResponse(requested: string | undefined): Reply {
  const echoed = requested && requested.length <= 2000 && HEADER_LIST.test(requested) ? requested.trim() : '';
  return {
    status: 204,
    headers: {
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': echoed ? `${BASE_ALLOWED}, ${echoed}` : BASE_ALLOWED,
      'access-control-max-age': '600',
      vary: 'Access-Control-Request-Headers',
    },
  };
}
