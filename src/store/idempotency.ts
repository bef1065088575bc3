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

const NO_ENTRIES: ReadonlyMap<string, Entry> = new Map();

export class IdempotencyIndex {
  /** Made with the first key: most accounts never send one for a purchase, many never for a build. */
  private entries: Map<string, Entry> | null = null;
  observer: IdempotencyObserver | null = null;

  /** The build a live key points at, if any. */
  find(key: string, now: number): string | undefined {
    this.prune(now);
    return this.entries?.get(key)?.buildId;
  }

  remember(key: string, buildId: string, now: number): void {
    this.prune(now);
    const entries = (this.entries ??= new Map());
    this.observer?.touched(key, entries.get(key));
    entries.set(key, { buildId, createdAt: now });
  }

  /** [key, buildId, createdAt], oldest first: what a saved simulation keeps. */
  snapshot(): Array<[string, string, number]> {
    return [...this.liveEntries()].map(([key, e]) => [key, e.buildId, e.createdAt]);
  }

  /** The entry under `key`, as kept: for the change capture. */
  peek(key: string): Entry | undefined {
    return this.entries?.get(key);
  }

  /** Every entry, oldest first, without copying: for a checkpoint written a slice at a time. */
  liveEntries(): IterableIterator<[string, Entry]> {
    return (this.entries ?? NO_ENTRIES).entries();
  }

  restore(entries: Array<[string, string, number]>): void {
    this.observer?.emptied();
    this.entries = entries.length === 0 ? null : new Map(entries.map(([key, buildId, createdAt]) => [key, { buildId, createdAt }]));
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  /** Forgets the keys whose window has passed: O(expired). */
  prune(now: number): void {
    if (this.entries === null) return;
    for (const [key, entry] of this.entries) {
      if (now - entry.createdAt < IDEMPOTENCY_WINDOW_MS) break;
      this.observer?.touched(key, entry);
      this.entries.delete(key);
    }
  }
}
