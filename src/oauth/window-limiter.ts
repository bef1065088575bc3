/** Fixed one-minute windows on the virtual clock, per key: enough to slow down a guesser. */
export class WindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly perMinute: number) {}

  /** Seconds to wait, or 0 when the call may go ahead (and is counted). */
  take(key: string, now: number): number {
    const start = now - (now % 60_000);
    const window = this.windows.get(key);
    if (!window || window.start !== start) {
      if (this.windows.size > 10_000) this.windows.clear(); // old windows are worth nothing
      this.windows.set(key, { start, count: 1 });
      return 0;
    }
    if (window.count >= this.perMinute) return Math.max(1, Math.ceil((start + 60_000 - now) / 1000));
    window.count++;
    return 0;
  }
}
