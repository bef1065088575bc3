/** Reuse of an Idempotency-Key returns the existing build within this window (spec, Limits). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

interface Entry {
  buildId: string;
  createdAt: number;
}

/**
 * One account's Idempotency-Keys. Entries are kept in creation order, and the clock only
 * moves forward, so expired entries are always at the front and pruning is O(expired).
 */
/** Told of every key put or forgotten, and of the index's emptying (see ChangeCapture). */
export interface IdempotencyObserver {
  touched(key: string, entry: { buildId: string; createdAt: number } | undefined): void;
  emptied(): void;
}

export class IdempotencyIndex {
  private readonly entries = new Map<string, Entry>();
  observer: IdempotencyObserver | null = null;

  /** The build a live key points at, if any. */
  find(key: string, now: number): string | undefined {
    this.prune(now);
    return this.entries.get(key)?.buildId;
  }

  remember(key: string, buildId: string, now: number): void {
    this.prune(now);
    this.observer?.touched(key, this.entries.get(key));
    this.entries.set(key, { buildId, createdAt: now });
  }

  /** [key, buildId, createdAt], oldest first: what a saved simulation keeps. */
  snapshot(): Array<[string, string, number]> {
    return [...this.entries].map(([key, e]) => [key, e.buildId, e.createdAt]);
  }

  /** The entry under `key`, as kept: for the change capture. */
  peek(key: string): Entry | undefined {
    return this.entries.get(key);
  }

  /** Every entry, oldest first, without copying: for a checkpoint written a slice at a time. */
  liveEntries(): IterableIterator<[string, Entry]> {
    return this.entries.entries();
  }

  restore(entries: Array<[string, string, number]>): void {
    this.observer?.emptied();
    this.entries.clear();
    for (const [key, buildId, createdAt] of entries) this.entries.set(key, { buildId, createdAt });
  }

  get size(): number {
    return this.entries.size;
  }

  /** Forgets the keys whose window has passed: O(expired). */
  prune(now: number): void {
    for (const [key, entry] of this.entries) {
      if (now - entry.createdAt < IDEMPOTENCY_WINDOW_MS) break;
      this.observer?.touched(key, entry);
      this.entries.delete(key);
    }
  }
}
