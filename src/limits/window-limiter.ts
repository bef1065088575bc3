import { sha256Hex } from '../credentials/sha256.js';
import { LruMap } from './lru-map.js';
import { WINDOW_MS } from './rate-limiter.js';

/** Keys a limiter remembers at most: beyond it the least recently seen key is forgotten. */
export const DEFAULT_LIMITER_KEYS = 10_000;

export interface WindowState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the key's window ends. */
  resetAt: number;
  /** Whole seconds to wait before the key may be counted again (at least 1). */
  retryAfterSeconds: number;
}

/**
 * Fixed one-minute windows per key, on the virtual clock: what slows down a guesser of keys,
 * tokens or codes, or a flood of one endpoint. Whatever a caller sends, a key is kept only
 * as a 128-bit digest, so an entry costs the same for a 10-byte address as for a 1 MB
 * `client_id`. The table holds at most `maxKeys` entries and forgets the least recently
 * seen one beyond that: never a wholesale clear, which would hand every caller a fresh window.
 */
export class WindowLimiter {
  /** Digest → the key's current window, least recently seen first. */
  private readonly windows: LruMap<string, { start: number; count: number }>;

  constructor(
    readonly limit: number,
    maxKeys = DEFAULT_LIMITER_KEYS,
  ) {
    this.windows = new LruMap(maxKeys);
  }

  /** The key's window after `now`, counting nothing. */
  peek(key: string, now: number): WindowState {
    return this.state(this.windows.get(digest(key)), now);
  }

  /** Counts one call of the key when its window has room; answers whether it was counted. */
  take(key: string, now: number): { allowed: boolean } & WindowState {
    const window = this.touch(digest(key), now);
    const allowed = window.count < this.limit;
    if (allowed) window.count++;
    return { allowed, ...this.state(window, now) };
  }

  /** Counts one call of the key whatever its window holds (a failure already made). */
  count(key: string, now: number): WindowState {
    const window = this.touch(digest(key), now);
    window.count++;
    return this.state(window, now);
  }

  clear(): void {
    this.windows.clear();
  }

  /** Keys remembered now. */
  get size(): number {
    return this.windows.size;
  }

  /** The key's window, moved to the most recent end and started afresh when its minute is over. */
  private touch(hash: string, now: number): { start: number; count: number } {
    const start = now - (now % WINDOW_MS);
    const found = this.windows.get(hash);
    const window = found && found.start === start ? found : { start, count: 0 };
    this.windows.set(hash, window);
    return window;
  }

  private state(window: { start: number; count: number } | undefined, now: number): WindowState {
    const start = now - (now % WINDOW_MS);
    const used = window && window.start === start ? window.count : 0;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - used),
      resetAt: Math.ceil((start + WINDOW_MS) / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)),
    };
  }
}

/** 128 bits of SHA-256: a fixed-size key that no caller can steer into another's bucket. */
function digest(key: string): string {
  return sha256Hex(key).slice(0, 32);
}
