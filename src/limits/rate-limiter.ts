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

/** A key's counts in one window, one per route class: no bucket name to build a request. */
type ClassCounts = Record<RateLimitClass, number>;

/** One window's counts: a key's per class, a user's overall, and how many buckets hold any. */
class WindowCounts {
  readonly keys = new Map<string, ClassCounts>();
  readonly users = new Map<string, number>();
  /** Keys whose window a scenario spent: refused until the window ends, whatever the limits. */
  readonly spent = new Set<string>();
  buckets = 0;
  constructor(public start: number) {}
}

/**
 * Counts of the current window only. Windows are aligned for every bucket, so when the clock
 * enters a new one every count starts again at zero: the counts are replaced, in O(1), and the
 * buckets of keys and accounts that stopped calling are gone with them. Nothing accumulates.
 */
export class RateLimiter {
  private counts = new WindowCounts(-1);
  /**
   * Accounts on their own clocks are in windows of their own time: each has its window and
   * counts apart (its keys' buckets and its user bucket), so no account's time rolls another's.
   */
  private readonly ownWindows = new Map<string, WindowCounts>();
  /** The uncounted headers of each class in the current window: the same for every request in it. */
  private readonly uncountedStates = new Map<RateLimitClass, Readonly<RateLimitState>>();

  /** Every window starts afresh: the simulator was reset. */
  clear(): void {
    this.counts = new WindowCounts(-1);
    this.ownWindows.clear();
  }

  constructor(
    private readonly keyLimits: Readonly<Record<RateLimitClass, number>> = KEY_LIMITS,
    private readonly userLimit: number = USER_LIMIT,
  ) {}

  /** `ownClock`: `now` is the account's own time, not the simulator's. */
  take(keyId: string, accountId: string, routeClass: RateLimitClass, now: number, ownClock = false): RateLimitDecision {
    const window = ownClock ? this.rollOwn(accountId, now) : this.roll(now);
    const windowStart = window.start;
    const perClass = window.keys.get(keyId);
    const keyCount = perClass === undefined ? 0 : perClass[routeClass];
    const userCount = window.users.get(accountId) ?? 0;
    const keyLimit = this.keyLimits[routeClass];
    const resetAt = Math.ceil((windowStart + WINDOW_MS) / 1000);
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));

    const keyFull = keyCount >= keyLimit || window.spent.has(keyId);
    const userFull = userCount >= this.userLimit;
    if (keyFull || userFull) {
      const bucket = keyFull ? KEY_BUCKET_NAMES[routeClass] : 'user';
      const limit = keyFull ? keyLimit : this.userLimit;
      return { allowed: false, state: { bucket, limit, remaining: 0, resetAt }, retryAfterSeconds };
    }
    if (perClass === undefined) window.keys.set(keyId, { default: 0, 'build-create': 0, generation: 0, [routeClass]: 1 });
    else perClass[routeClass] = keyCount + 1;
    window.users.set(accountId, userCount + 1);
    if (keyCount === 0) window.buckets++;
    if (userCount === 0) window.buckets++;
    const keyLeft = keyLimit - keyCount - 1;
    const userLeft = this.userLimit - userCount - 1;
    const state: RateLimitState =
      userLeft < keyLeft
        ? { bucket: 'user', limit: this.userLimit, remaining: userLeft, resetAt }
        : { bucket: KEY_BUCKET_NAMES[routeClass], limit: keyLimit, remaining: keyLeft, resetAt };
    return { allowed: true, state, retryAfterSeconds };
  }

  /**
   * Spends the key's window at once, as a client that called until it was refused would have:
   * its next request is 429 until the window ends, however high the limits are set (a scenario's
   * rate-limited key is limited on a server started with --no-rate-limits too). The account's
   * other keys keep their own windows. O(1): no request is made to get there.
   */
  spend(keyId: string, accountId: string, now: number, ownClock = false): void {
    const window = ownClock ? this.rollOwn(accountId, now) : this.roll(now);
    if (!window.keys.has(keyId) && !window.spent.has(keyId)) window.buckets++;
    window.spent.add(keyId);
  }

  /** The headers of a request that no bucket counts (no valid key): a full window of the class. */
  uncounted(routeClass: RateLimitClass, now: number): Readonly<RateLimitState> {
    const windowStart = now - (now % WINDOW_MS);
    const resetAt = Math.ceil((windowStart + WINDOW_MS) / 1000);
    let state = this.uncountedStates.get(routeClass);
    if (state === undefined || state.resetAt !== resetAt) {
      state = Object.freeze({ bucket: KEY_BUCKET_NAMES[routeClass], limit: this.keyLimits[routeClass], remaining: this.keyLimits[routeClass], resetAt });
      this.uncountedStates.set(routeClass, state);
    }
    return state;
  }

  /** Moves to the window `now` falls in, forgetting the counts of the one before; answers it. */
  private roll(now: number): WindowCounts {
    const start = now - (now % WINDOW_MS);
    if (start !== this.counts.start) this.counts = new WindowCounts(start);
    return this.counts;
  }

  /** `roll` for one account on its own clock. */
  private rollOwn(accountId: string, now: number): WindowCounts {
    const start = now - (now % WINDOW_MS);
    let window = this.ownWindows.get(accountId);
    if (window === undefined || window.start !== start) {
      window = new WindowCounts(start);
      this.ownWindows.set(accountId, window);
    }
    return window;
  }

  /** Forgets an account's own window: it follows the simulator's clock again. */
  dropOwnWindow(accountId: string): void {
    this.ownWindows.delete(accountId);
  }

  /** Buckets counted in the current window: what the limiter holds. */
  get size(): number {
    let size = this.counts.buckets;
    for (const window of this.ownWindows.values()) size += window.buckets;
    return size;
  }
}
