import { toIso } from '../clock/clock.js';
import type { Simulation, ControlHandler } from './context.js';
import { createAccountWithKeys } from '../seed/accounts.js';

function clockJson(sim: Simulation) {
  const now = sim.clock.now();
  return { now: toIso(now), nowMs: now, frozen: sim.clock.frozen };
}

export const getSimulatorInfo: ControlHandler = ({ sim }) => ({
  status: 200,
  json: { name: 'content-service-simulator', version: sim.version, seed: sim.seed, pipelineSpeed: sim.speedLabel, clock: clockJson(sim) },
});

export const getClock: ControlHandler = ({ sim }) => ({ status: 200, json: clockJson(sim) });

export const advanceClock: ControlHandler = ({ sim, body }) => {
  const { ms, seconds } = body as { ms?: number; seconds?: number };
  sim.clock.advance(ms ?? Math.round((seconds ?? 0) * 1000));
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
  const { name, balance } = (body ?? {}) as { name?: string; balance?: number };
  const created = createAccountWithKeys(sim.store, { name: name ?? 'Test account', balance: balance ?? 100 }, now);
  return {
    status: 201,
    json: { accountId: created.account.id, name: created.account.name, balance: created.account.balance, keys: created.keys },
  };
};

/** The CI shortcut of the OAuth server: tokens for a key's account, no browser. */
export const mintOAuthTokens: ControlHandler = ({ sim, body, now }) => sim.oauth.mint(body, now);
