import type { RateLimitState } from '../limits/rate-limiter.js';
import { CORS_HEADERS } from './cors.js';

const CORS_ENTRIES = Object.entries(CORS_HEADERS);
const ALLOW_ORIGIN = CORS_HEADERS['access-control-allow-origin'] as string;
const EXPOSE_HEADERS = CORS_HEADERS['access-control-expose-headers'] as string;

/**
 * The headers every answer has, in the order they are sent: the date (the virtual clock's, so
 * that it and X-RateLimit-Reset agree), the rate-limit state, the correlation id, and CORS for
 * what other origins may read.
 */
export function answerHeaders(date: string, rate: Readonly<RateLimitState> | null, correlationId: string, cors: boolean): Record<string, string> {
  // The service API's answer (counted, CORS-open) in one literal; the rarer others get their keys added.
  const headers: Record<string, string> =
    rate && cors
      ? {
          date,
          'x-ratelimit-limit': String(rate.limit),
          'x-ratelimit-remaining': String(rate.remaining),
          'x-ratelimit-reset': String(rate.resetAt),
          'x-correlation-id': correlationId,
          'access-control-allow-origin': ALLOW_ORIGIN,
          'access-control-expose-headers': EXPOSE_HEADERS,
        }
      : { date, 'x-correlation-id': correlationId };
  if (rate && !cors) {
    headers['x-ratelimit-limit'] = String(rate.limit);
    headers['x-ratelimit-remaining'] = String(rate.remaining);
    headers['x-ratelimit-reset'] = String(rate.resetAt);
  }
  if (cors && !rate) for (const [name, value] of CORS_ENTRIES) headers[name] = value;
  return headers;
}
