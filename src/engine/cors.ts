import type { Reply } from '../operations/context.js';

/**
 * Headers a browser front end reads from the service API's answers (rate limits, the
 * correlation id to quote in a support request, Retry-After of a 429, where a created
 * resource lives, a download's file name, the challenge of a 401/403, paging and caching).
 */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Correlation-Id',
  'Location',
  'Content-Disposition',
  'WWW-Authenticate',
  'ETag',
  'Link',
] as const;

/** Lets a browser front end on another origin call the simulator and read its headers. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
};

/** What every front end of this API sends; allowed even when the preflight names nothing. */
const BASE_ALLOWED = 'Authorization, Content-Type, Idempotency-Key';

/** A comma-separated list of header names (RFC 9110 tokens), of a sane length. */
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * The answer to a preflight of the service API: any headers the browser asks for are
 * allowed (a front end's X-Request-Id, tracing's traceparent, sentry-trace, baggage…), since
 * the API ignores what it does not read and a key is still needed for anything but public
 * routes. A malformed request list is not echoed. Never used for /_sim (no CORS at all).
 */
export function preflightResponse(requestedHeaders?: string): Reply {
  const requested = requestedHeaders?.trim() ?? '';
  const echo = requested.length > 0 && requested.length <= 2048 && HEADER_LIST.test(requested);
  return {
    status: 204,
    headers: {
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': echo ? `${BASE_ALLOWED}, ${requested}` : BASE_ALLOWED,
      'access-control-max-age': '600',
      // The allowed headers depend on the request's list: a cache must not reuse one answer for another list.
      vary: 'Access-Control-Request-Headers',
    },
  };
}
