import { Clock } from './clock.js';

/** 9999-12-31T23:59:59.999Z: the last instant with a four-digit year, past which dates break. */
export const LAST_INSTANT = 253_402_300_799_999;

/** How an account's own clock starts: frozen at an instant, running at an offset, or as the simulator's stands. */
export type OwnClockStart = { frozenAt: number } | { offsetMs: number } | { fromSimulator: true };

/**
 * A clock of one account's own, reading real time where the simulator's does (so a test's
 * injected real time drives both). Advancing it moves only that account.
 */
export function ownClock(simulator: Clock, start: OwnClockStart): Clock {
  const realTime = () => simulator.realNow();
  if ('frozenAt' in start) return new Clock({ realTime, frozenAt: start.frozenAt });
  if ('offsetMs' in start) return new Clock({ realTime, offsetMs: start.offsetMs });
  const clock = new Clock({ realTime });
  clock.restore(simulator.snapshot(), simulator.realNow());
  return clock;
}

/** An account's clock as a snapshot saved it, going on as the simulator's own clock does on restore. */
export function restoredOwnClock(simulator: Clock, saved: { now: number; frozen: boolean }, savedAt: number): Clock {
  const clock = new Clock({ realTime: () => simulator.realNow() });
  clock.restore(saved, savedAt);
  return clock;
}
