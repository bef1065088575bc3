import { LAST_INSTANT, ownClock } from '../clock/account-clock.js';
import { ApiError, notFound, validationError } from '../errors/api-error.js';
import type { ControlHandler } from './context.js';
import type { SimulatorState } from '../state/simulator-state.js';
import type { Account } from '../store/account.js';
import { accountClockJson, clockStart } from './account-clock-json.js';

function accountOf(sim: SimulatorState, id: string): Account {
  const account = sim.store.account(id);
  if (!account) throw notFound('account', id);
  return account;
}

/** Advancing, freezing or resuming needs a clock of the account's own: the simulator's is moved under /_sim/clock. */
function ownClockOf(sim: SimulatorState, id: string) {
  const account = accountOf(sim, id);
  if (account.clock === null) {
    throw new ApiError(409, 'CONFLICT', `Account ${id} follows the simulator's clock: give it its own first (POST /_sim/accounts/${id}/clock).`, { accountId: id });
  }
  return { account, clock: account.clock };
}

export const getAccountClock: ControlHandler = ({ sim, params }) => ({ status: 200, json: accountClockJson(sim, accountOf(sim, params.path.accountId as string)) });

export const setAccountClock: ControlHandler = ({ sim, params, body }) => {
  const account = accountOf(sim, params.path.accountId as string);
  account.clock = ownClock(sim.clock, clockStart((body ?? {}) as { frozenAt?: string; offsetMs?: number }, 'body', sim.clock.realNow()));
  return { status: 200, json: accountClockJson(sim, account) };
};

export const dropAccountClock: ControlHandler = ({ sim, params }) => {
  const account = accountOf(sim, params.path.accountId as string);
  account.clock = null;
  sim.limiter.dropOwnWindow(account.id);
  return { status: 200, json: accountClockJson(sim, account) };
};

export const advanceAccountClock: ControlHandler = ({ sim, params, body }) => {
  const { account, clock } = ownClockOf(sim, params.path.accountId as string);
  const { ms, seconds } = body as { ms?: number; seconds?: number };
  const step = ms ?? Math.round((seconds ?? 0) * 1000);
  if (clock.now() + step > LAST_INSTANT) {
    throw validationError([{ path: ms === undefined ? 'body.seconds' : 'body.ms', message: `would move the clock past ${new Date(LAST_INSTANT).toISOString()}` }]);
  }
  clock.advance(step);
  return { status: 200, json: accountClockJson(sim, account) };
};

export const freezeAccountClock: ControlHandler = ({ sim, params }) => {
  const { account, clock } = ownClockOf(sim, params.path.accountId as string);
  clock.freeze();
  return { status: 200, json: accountClockJson(sim, account) };
};

export const resumeAccountClock: ControlHandler = ({ sim, params }) => {
  const { account, clock } = ownClockOf(sim, params.path.accountId as string);
  clock.resume();
  return { status: 200, json: accountClockJson(sim, account) };
};
