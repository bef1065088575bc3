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
export class IdempotencyIndex {
  private readonly entries = new Map<string, Entry>();

  /** The build a live key points at, if any. */
  find(key: string, now: number): string | undefined {
    this.prune(now);
    return this.entries.get(key)?.buildId;
  }

  remember(key: string, buildId: string, now: number): void {
    this.prune(now);
    this.entries.set(key, { buildId, createdAt: now });
  }

  /** [key, buildId, createdAt], oldest first: what a saved simulation keeps. */
  snapshot(): Array<[string, string, number]> {
    return [...this.entries].map(([key, e]) => [key, e.buildId, e.createdAt]);
  }

  restore(entries: Array<[string, string, number]>): void {
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
      this.entries.delete(key);
    }
  }
}
