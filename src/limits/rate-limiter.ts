/**
 * Fixed 60-second windows on the virtual clock (spec, Limits). A request counts once in its
 * key's bucket for the route class and once in the user's bucket; it is admitted only if
 * both have room, and a rejected request consumes nothing.
 */
export const WINDOW_MS = 60_000;

export type RateLimitClass = 'default' | 'build-create' | 'generation';

export const KEY_LIMITS: Readonly<Record<RateLimitClass, number>> = {
  default: 60,
  'build-create': 10,
  generation: 20,
};
export const USER_LIMIT = 120;

export type BucketName = 'key' | 'key-build-create' | 'key-generation' | 'user' | 'address';

const KEY_BUCKET_NAMES: Readonly<Record<RateLimitClass, BucketName>> = {
  default: 'key',
  'build-create': 'key-build-create',
  generation: 'key-generation',
};

export interface RateLimitState {
  bucket: BucketName;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The tightest bucket: the one that refused, or the one with the fewest requests left. */
  state: RateLimitState;
  retryAfterSeconds: number;
}

interface Counter {
  windowStart: number;
  count: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter>();

  /** Every window starts afresh: the simulator was reset. */
  clear(): void {
    this.counters.clear();
  }

  constructor(
    private readonly keyLimits: Readonly<Record<RateLimitClass, number>> = KEY_LIMITS,
    private readonly userLimit: number = USER_LIMIT,
  ) {}

  take(keyId: string, accountId: string, routeClass: RateLimitClass, now: number): RateLimitDecision {
    const windowStart = now - (now % WINDOW_MS);
    const keyCounter = this.counter(`k:${keyId}:${routeClass}`, windowStart);
    const userCounter = this.counter(`u:${accountId}`, windowStart);
    const keyLimit = this.keyLimits[routeClass];
    const resetAt = Math.ceil((windowStart + WINDOW_MS) / 1000);
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));

    const keyFull = keyCounter.count >= keyLimit;
    const userFull = userCounter.count >= this.userLimit;
    if (keyFull || userFull) {
      const bucket = keyFull ? KEY_BUCKET_NAMES[routeClass] : 'user';
      const limit = keyFull ? keyLimit : this.userLimit;
      return { allowed: false, state: { bucket, limit, remaining: 0, resetAt }, retryAfterSeconds };
    }
    keyCounter.count++;
    userCounter.count++;
    const keyLeft = keyLimit - keyCounter.count;
    const userLeft = this.userLimit - userCounter.count;
    const state: RateLimitState =
      userLeft < keyLeft
        ? { bucket: 'user', limit: this.userLimit, remaining: userLeft, resetAt }
        : { bucket: KEY_BUCKET_NAMES[routeClass], limit: keyLimit, remaining: keyLeft, resetAt };
    return { allowed: true, state, retryAfterSeconds };
  }

  /** The headers of a request that no bucket counts (no valid key): a full window of the class. */
  uncounted(routeClass: RateLimitClass, now: number): RateLimitState {
    const windowStart = now - (now % WINDOW_MS);
    return {
      bucket: KEY_BUCKET_NAMES[routeClass],
      limit: this.keyLimits[routeClass],
      remaining: this.keyLimits[routeClass],
      resetAt: Math.ceil((windowStart + WINDOW_MS) / 1000),
    };
  }

  private counter(id: string, windowStart: number): Counter {
    let counter = this.counters.get(id);
    if (!counter) {
      counter = { windowStart, count: 0 };
      this.counters.set(id, counter);
    } else if (counter.windowStart !== windowStart) {
      counter.windowStart = windowStart;
      counter.count = 0;
    }
    return counter;
  }
}

