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

/**
 * Counts of the current window only. Windows are aligned for every bucket, so when the clock
 * enters a new one every count starts again at zero: the map is replaced, in O(1), and the
 * buckets of keys and accounts that stopped calling are gone with it. Nothing accumulates.
 */
export class RateLimiter {
  private windowStart = -1;
  private counts = new Map<string, number>();
  /**
   * Accounts on their own clocks are in windows of their own time: each has its window and
   * counts apart (its keys' buckets and its user bucket), so no account's time rolls another's.
   */
  private readonly ownWindows = new Map<string, { start: number; counts: Map<string, number> }>();

  /** Every window starts afresh: the simulator was reset. */
  clear(): void {
    this.windowStart = -1;
    this.counts = new Map();
    this.ownWindows.clear();
  }

  constructor(
    private readonly keyLimits: Readonly<Record<RateLimitClass, number>> = KEY_LIMITS,
    private readonly userLimit: number = USER_LIMIT,
  ) {}

  /** `ownClock`: `now` is the account's own time, not the simulator's. */
  take(keyId: string, accountId: string, routeClass: RateLimitClass, now: number, ownClock = false): RateLimitDecision {
    const windowStart = ownClock ? this.rollOwn(accountId, now) : this.roll(now);
    const counts = ownClock ? this.ownWindows.get(accountId)!.counts : this.counts;
    const keyBucket = `k:${keyId}:${routeClass}`;
    const userBucket = `u:${accountId}`;
    const keyCount = counts.get(keyBucket) ?? 0;
    const userCount = counts.get(userBucket) ?? 0;
    const keyLimit = this.keyLimits[routeClass];
    const resetAt = Math.ceil((windowStart + WINDOW_MS) / 1000);
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));

    const keyFull = keyCount >= keyLimit;
    const userFull = userCount >= this.userLimit;
    if (keyFull || userFull) {
      const bucket = keyFull ? KEY_BUCKET_NAMES[routeClass] : 'user';
      const limit = keyFull ? keyLimit : this.userLimit;
      return { allowed: false, state: { bucket, limit, remaining: 0, resetAt }, retryAfterSeconds };
    }
    counts.set(keyBucket, keyCount + 1);
    counts.set(userBucket, userCount + 1);
    const keyLeft = keyLimit - keyCount - 1;
    const userLeft = this.userLimit - userCount - 1;
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

  /** Moves to the window `now` falls in, forgetting the counts of the one before; answers its start. */
  private roll(now: number): number {
    const start = now - (now % WINDOW_MS);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.counts = new Map();
    }
    return start;
  }

  /** `roll` for one account on its own clock. */
  private rollOwn(accountId: string, now: number): number {
    const start = now - (now % WINDOW_MS);
    const window = this.ownWindows.get(accountId);
    if (window === undefined) this.ownWindows.set(accountId, { start, counts: new Map() });
    else if (window.start !== start) {
      window.start = start;
      window.counts = new Map();
    }
    return start;
  }

  /** Forgets an account's own window: it follows the simulator's clock again. */
  dropOwnWindow(accountId: string): void {
    this.ownWindows.delete(accountId);
  }

  /** Buckets counted in the current window: what the limiter holds. */
  get size(): number {
    let size = this.counts.size;
    for (const window of this.ownWindows.values()) size += window.counts.size;
    return size;
  }
}

