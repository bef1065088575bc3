import { ApiError } from '../errors/api-error.js';
import type { RateLimitState } from './rate-limiter.js';
import { WindowLimiter } from './window-limiter.js';

/** Failed authentications a client address may make in a minute before it must wait. */
export const FAILED_AUTH_LIMIT = 30;
/** Views of shared deliverables (a public route) a client address may make in a minute. */
export const SHARE_VIEW_LIMIT = 60;

/**
 * A per-address window limiter that speaks the service API: 429 RATE_LIMITED with the
 * `address` bucket's headers. The counting (bounded, fixed-size keys) is `WindowLimiter`'s.
 */
export class AddressLimiter {
  private readonly windows: WindowLimiter;

  constructor(readonly limit: number) {
    this.windows = new WindowLimiter(limit);
  }

  /** Throws 429 RATE_LIMITED when the address has used up its window; counts nothing. */
  check(address: string, now: number): RateLimitState {
    const state = this.windows.peek(address, now);
    if (state.remaining > 0) return asRateLimitState(state);
    const { retryAfterSeconds, resetAt } = state;
    throw new ApiError(
      429,
      'RATE_LIMITED',
      `Too many requests from this address; retry in ${retryAfterSeconds} s.`,
      { bucket: 'address', limit: this.limit, retryAfterSeconds },
      { 'retry-after': String(retryAfterSeconds), 'x-ratelimit-limit': String(this.limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt) },
    );
  }

  clear(): void {
    this.windows.clear();
  }

  /** Counts one request of the address and returns the window's state after it. */
  count(address: string, now: number): RateLimitState {
    return asRateLimitState(this.windows.count(address, now));
  }

  /** Addresses remembered now. */
  get size(): number {
    return this.windows.size;
  }
}

function asRateLimitState({ limit, remaining, resetAt }: { limit: number; remaining: number; resetAt: number }): RateLimitState {
  return { bucket: 'address', limit, remaining, resetAt };
}
