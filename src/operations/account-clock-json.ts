import { toIso } from '../clock/clock.js';
import { LAST_INSTANT, type OwnClockStart } from '../clock/account-clock.js';
import { validationError } from '../errors/api-error.js';
import type { SimulatorState } from '../state/simulator-state.js';
import type { Account } from '../store/account.js';

/** What the control API says of an account's time: its own clock's, or the simulator's it follows. */
export function accountClockJson(sim: SimulatorState, account: Account) {
  const clock = account.clock ?? sim.clock;
  const now = clock.now();
  return { accountId: account.id, own: account.clock !== null, now: toIso(now), nowMs: now, frozen: clock.frozen };
}

/** The body of a clock start (`{ own: true }`, `{ frozenAt }` or `{ offsetMs }`), checked as the simulator's clock checks instants. */
export function clockStart(body: { own?: true; frozenAt?: string; offsetMs?: number }, path: string, realNow: number): OwnClockStart {
  if (body.frozenAt !== undefined) {
    const at = Date.parse(body.frozenAt);
    if (!Number.isFinite(at) || at < 0 || at > LAST_INSTANT) {
      throw validationError([{ path: `${path}.frozenAt`, message: `must be an instant from 1970 to ${new Date(LAST_INSTANT).toISOString()}` }]);
    }
    return { frozenAt: at };
  }
  if (body.offsetMs !== undefined) {
    const at = realNow + body.offsetMs;
    if (at < 0 || at > LAST_INSTANT) {
      throw validationError([{ path: `${path}.offsetMs`, message: `would put the clock outside 1970 to ${new Date(LAST_INSTANT).toISOString()}` }]);
    }
    return { offsetMs: body.offsetMs };
  }
  return { fromSimulator: true };
}
