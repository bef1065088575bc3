import { ApiError } from '../engine/api-error.js';
import { WINDOW_MS, type RateLimitState } from './rate-limiter.js';

/** Failed authentications a client address may make in a minute before it must wait. */
export const FAILED_AUTH_LIMIT = 30;
/** Views of shared deliverables (a public route) a client address may make in a minute. */
export const SHARE_VIEW_LIMIT = 60;

/**
 * Fixed one-minute windows per client address, on the virtual clock: what slows down a
 * guesser of keys or share tokens. Windows are aligned for every address, so only the
 * current one is kept: a new window starts from an empty map, in O(1), whatever the history.
 */
export class AddressLimiter {
  private windowStart = -1;
  private counts = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Throws 429 RATE_LIMITED when the address has used up its window; counts nothing. */
  check(address: string, now: number): RateLimitState {
    const state = this.state(address, now);
    if (state.remaining > 0) return state;
    const retryAfterSeconds = Math.max(1, state.resetAt - Math.floor(now / 1000));
    throw new ApiError(
      429,
      'RATE_LIMITED',
      `Too many requests from this address; retry in ${retryAfterSeconds} s.`,
      { bucket: 'address', limit: this.limit, retryAfterSeconds },
      { 'retry-after': String(retryAfterSeconds), 'x-ratelimit-limit': String(this.limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(state.resetAt) },
    );
  }

  clear(): void {
    this.windowStart = -1;
    this.counts = new Map();
  }

  /** Counts one request of the address and returns the window's state after it. */
  count(address: string, now: number): RateLimitState {
    this.roll(now);
    this.counts.set(address, (this.counts.get(address) ?? 0) + 1);
    return this.state(address, now);
  }

  private state(address: string, now: number): RateLimitState {
    this.roll(now);
    const used = this.counts.get(address) ?? 0;
    return { bucket: 'address', limit: this.limit, remaining: Math.max(0, this.limit - used), resetAt: Math.ceil((this.windowStart + WINDOW_MS) / 1000) };
  }

  private roll(now: number): void {
    const start = now - (now % WINDOW_MS);
    if (start === this.windowStart) return;
    this.windowStart = start;
    this.counts = new Map();
  }
}
