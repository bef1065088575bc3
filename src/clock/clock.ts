/**
 * The one source of time. It follows real time by default (so timestamps and
 * X-RateLimit-Reset mean what a client expects), can be frozen, and only moves forward:
 * everything time-dependent (pipeline, windows, expiry) is a function of `now()`.
 */
export interface ClockOptions {
  /** Start frozen at this instant (ms since the epoch) instead of following real time. */
  frozenAt?: number;
  /** Running, this far ahead of real time (ms; negative: behind) instead of on it. */
  offsetMs?: number;
  /** Where real time comes from; injectable for tests. */
  realTime?: () => number;
}

/** A clock's setting: `at` is the frozen instant, or the offset (ms) from real time while it runs. */
export interface ClockSetting {
  frozen: boolean;
  at: number;
}

/** The saved form of a clock set so, as of the real instant `savedAt`. */
export function savedClock(setting: ClockSetting, savedAt: number): { now: number; frozen: boolean } {
  return { now: setting.frozen ? setting.at : setting.at + savedAt, frozen: setting.frozen };
}

export class Clock {
  private readonly realTime: () => number;
  /** Added to real time while running. */
  private offset = 0;
  /** The instant time stands still at, when frozen. */
  private frozenAt: number | null;

  constructor(options: ClockOptions = {}) {
    this.realTime = options.realTime ?? (() => Date.now());
    this.frozenAt = options.frozenAt ?? null;
    this.offset = options.offsetMs ?? 0;
  }

  now(): number {
    return this.frozenAt ?? this.realTime() + this.offset;
  }

  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  /** Moves time forward by `ms` (frozen or not). */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offset += ms;
    return this.now();
  }

  /** Real time, as this clock reads it: when a saved simulation was saved. */
  realNow(): number {
    return this.realTime();
  }

  /**
   * How the clock is set, which real time alone does not change: where it stands when frozen,
   * else its offset from real time. What a write-ahead log records of a clock.
   */
  setting(): ClockSetting {
    return this.frozenAt === null ? { frozen: false, at: this.offset } : { frozen: true, at: this.frozenAt };
  }

  /** What a saved simulation keeps: the instant, and whether time stands still there. */
  snapshot(): { now: number; frozen: boolean } {
    return { now: this.now(), frozen: this.frozen };
  }

  /**
   * Takes up a saved clock. A frozen one stands where it stood; a running one goes on from the
   * saved instant plus the real time since (`savedAt`, real ms), as a service that kept running would.
   */
  restore(saved: { now: number; frozen: boolean }, savedAt: number): number {
    if (saved.frozen) {
      this.frozenAt = saved.now;
    } else {
      const real = this.realTime();
      this.frozenAt = null;
      this.offset = saved.now + Math.max(0, real - savedAt) - real;
    }
    return this.now();
  }

  freeze(): number {
    this.frozenAt ??= this.now();
    return this.frozenAt;
  }

  /** Runs again from where it stood: no jump, no going back. */
  resume(): number {
    if (this.frozenAt !== null) {
      this.offset = this.frozenAt - this.realTime();
      this.frozenAt = null;
    }
    return this.now();
  }
}

/**
 * Formatting a date is the costliest step of serializing a build, whose instants are fixed
 * at creation: each instant is formatted once and remembered. The memo is bounded (cleared
 * when full), so memory does not grow with history.
 */
const isoMemo = new Map<number, string>();
const ISO_MEMO_LIMIT = 65_536;

export function toIso(ms: number): string {
  let iso = isoMemo.get(ms);
  if (iso === undefined) {
    iso = new Date(ms).toISOString();
    if (isoMemo.size >= ISO_MEMO_LIMIT) isoMemo.clear();
    isoMemo.set(ms, iso);
  }
  return iso;
}

let httpDateSecond = NaN;
let httpDateText = '';

/** The `Date` header's form (second resolution): formatted once a second of the clock. */
export function toHttpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== httpDateSecond) {
    httpDateSecond = second;
    httpDateText = new Date(second * 1000).toUTCString();
  }
  return httpDateText;
}
