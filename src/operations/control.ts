import { toIso } from '../clock/clock.js';
import { notFound, validationError } from '../errors/api-error.js';
import type { ControlHandler } from './context.js';
import type { SimulatorState } from '../state/simulator-state.js';
import { createAccountWithKeys } from '../seed/accounts.js';
import { takeSnapshot } from '../state/snapshot.js';
import { restoreInSlices } from '../state/restore-in-slices.js';
import { resetAccount, resetSimulation } from '../state/reset.js';
import { ownClock } from '../clock/account-clock.js';
import { accountClockJson, clockStart } from './account-clock-json.js';
import { clientReportOf } from '../client-report/client-report.js';

function clockJson(sim: SimulatorState) {
  const now = sim.clock.now();
  return { now: toIso(now), nowMs: now, frozen: sim.clock.frozen };
}

export const getSimulatorInfo: ControlHandler = ({ sim }) => ({
  status: 200,
  json: { name: 'content-service-simulator', version: sim.version, seed: sim.seed, pipelineSpeed: sim.speedLabel, clock: clockJson(sim), accountClocks: true },
});

/** 9999-12-31T23:59:59.999Z: the last instant with a four-digit year. */
const LAST_INSTANT = 253_402_300_799_999;

export const getClock: ControlHandler = ({ sim }) => ({ status: 200, json: clockJson(sim) });

export const advanceClock: ControlHandler = ({ sim, body }) => {
  const { ms, seconds } = body as { ms?: number; seconds?: number };
  const step = ms ?? Math.round((seconds ?? 0) * 1000);
  // Past the last instant an ISO 8601 timestamp can name, every date would break: refuse, change nothing.
  if (sim.clock.now() + step > LAST_INSTANT) {
    throw validationError([{ path: ms === undefined ? 'body.seconds' : 'body.ms', message: `would move the clock past ${new Date(LAST_INSTANT).toISOString()}` }]);
  }
  sim.clock.advance(step);
  return { status: 200, json: clockJson(sim) };
};

export const freezeClock: ControlHandler = ({ sim }) => {
  sim.clock.freeze();
  return { status: 200, json: clockJson(sim) };
};

export const resumeClock: ControlHandler = ({ sim }) => {
  sim.clock.resume();
  return { status: 200, json: clockJson(sim) };
};

export const createSimulatorAccount: ControlHandler = ({ sim, body, now }) => {
  const { name, balance, clock } = (body ?? {}) as { name?: string; balance?: number; clock?: { frozenAt?: string; offsetMs?: number } };
  // Checked before anything is made: a refused clock leaves no account behind.
  const own = clock === undefined ? null : ownClock(sim.clock, clockStart(clock, 'body.clock', sim.clock.realNow()));
  // An account on its own clock is made, and its opening purchase booked, at its own time.
  // Unnamed accounts are told apart on a shared simulator's dashboard by their place in it.
  const named = name ?? `Test account ${sim.store.accounts.size + 1}`;
  const created = createAccountWithKeys(sim.store, { name: named, balance: balance ?? 100 }, own ? own.now() : now, own);
  const json = { accountId: created.account.id, name: created.account.name, balance: created.account.balance, keys: created.keys };
  return { status: 201, json: own ? { ...json, clock: accountClockJson(sim, created.account) } : json };
};

/** The CI shortcut of the OAuth server: tokens for a key's account, no browser. */
export const mintOAuthTokens: ControlHandler = ({ sim, body, now }) => sim.oauth.mint(body, now);

export const getSnapshot: ControlHandler = ({ sim }) => ({ status: 200, json: takeSnapshot(sim) });

function stateSummary(sim: SimulatorState) {
  let builds = 0;
  for (const account of sim.store.accounts.values()) builds += account.builds.size;
  return { accounts: sim.store.accounts.size, builds, clock: clockJson(sim) };
}

/** Read and checked a slice at a time, other clients answered meanwhile (see `restoreInSlices`). */
export const restoreSnapshot: ControlHandler = ({ sim, body }) => ({
  status: 200,
  later: restoreInSlices(sim, body as Uint8Array).then(() => ({ status: 200, json: stateSummary(sim) })),
});

export const resetSimulator: ControlHandler = ({ sim }) => {
  resetSimulation(sim, sim.initialState);
  return { status: 200, json: stateSummary(sim) };
};

export const resetSimulatorAccount: ControlHandler = ({ sim, params, now }) => {
  const id = params.path.accountId as string;
  const account = sim.store.account(id);
  if (!account) throw notFound('account', id);
  // The account keeps its clock; its opening purchase is booked at its own time.
  resetAccount(sim, account, account.now(now));
  clientReportOf(sim).clear(account);
  return { status: 200, json: { accountId: account.id, name: account.name, balance: account.balance } };
};

/** Liveness: the process answers. */
export const getHealth: ControlHandler = ({ sim }) => ({ status: 200, json: { status: 'ok', version: sim.version } });

/** Readiness: 503 while the server drains its connections before it stops, or while its state file cannot be written. */
export const getReadiness: ControlHandler = ({ sim }) => {
  if (!sim.ready) return { status: 503, json: { status: 'stopping', version: sim.version }, headers: { 'retry-after': '1' } };
  const storage = sim.store.changes.storageProblem;
  if (storage !== null) return { status: 503, json: { status: 'storage-failing', version: sim.version, storage }, headers: { 'retry-after': '1' } };
  return { status: 200, json: { status: 'ready', version: sim.version } };
};
