import { ownClock } from '../clock/account-clock.js';
import { toIso } from '../clock/clock.js';
import { Rng } from '../random/rng.js';
import { ApiError } from '../errors/api-error.js';
import { Account } from '../store/account.js';
import type { SimulatorState } from '../state/simulator-state.js';
import { PlacementRefused, runAccount } from './account-run.js';
import { ScenarioError, type InProcessHandle } from './calls.js';
import { scenarioProblems } from './check.js';
import { everyProblem } from './every-problem.js';
import { runAtOnce, type Steps } from '../state/steps.js';
import type { LoadedAccount, LoadedScenario, Scenario, ScenarioAccount } from './types.js';

/** An account's now once loaded, when its scenario does not say. */
export const DEFAULT_SCENARIO_TIME = '2026-01-05T09:00:00.000Z';
/** The opening balance of a rehearsal: enough that nothing is refused for want of tokens. */
const REHEARSAL_TOKENS = 1_000_000_000;

/** A scenario loaded into this simulator: what the dashboard and `GET /_sim/scenarios` list (never its keys). */
export interface LoadedScenarioEntry {
  scenario: string;
  description: string | null;
  loadedAt: string;
  accounts: Array<{ name: string; accountId: string }>;
}

/** The account's id: from the scenario's name and the account's, the first of that stream no account holds yet. */
function accountIdFor(sim: SimulatorState, scenario: string, name: string): string {
  const ids = new Rng(sim.seed, 'scenario-accounts', scenario, name);
  for (;;) {
    const id = ids.uuid();
    if (!sim.store.account(id)) return id;
  }
}

interface Rehearsal {
  span: number;
  opening: number;
  attempt: number;
}

/** Orders of making the builds tried before a scenario is refused. */
const PLACEMENT_ATTEMPTS = 12;

/**
 * The account run on a copy that nothing else sees: how long its builds take to reach their
 * statuses (so the account can start that long before its stated now) and how many tokens it
 * must open with to end at its stated balance.
 */
function* rehearse(sim: SimulatorState, handle: InProcessHandle, spec: ScenarioAccount, path: string, id: string, end: number): Steps<Rehearsal> {
  const trial = function* (opening: number, attempt: number) {
    const clock = ownClock(sim.clock, { frozenAt: end });
    const copy = new Account(id, spec.name, end, sim.seed);
    copy.clock = clock;
    yield* runAccount(sim, handle, spec, path, { account: copy, clock, opening, real: false, attempt });
    let lowest = opening;
    for (const t of copy.transactions.values()) lowest = Math.min(lowest, t.balanceAfter);
    // `peak`: the most tokens the history holds spent at once (a failed build's come back only when it fails).
    return { span: clock.now() - end, net: copy.balance - opening, peak: opening - lowest };
  };
  const placed = function* (opening: number, from: number) {
    for (let attempt = from; ; attempt++) {
      try {
        return { ...(yield* trial(opening, attempt)), attempt };
      } catch (error) {
        if (!(error instanceof PlacementRefused) || attempt + 1 >= PLACEMENT_ATTEMPTS) throw error;
      }
    }
  };
  const first = yield* placed(REHEARSAL_TOKENS, 0);
  const opening = (spec.balance ?? 100) - first.net;
  if (opening < 0) {
    throw new ScenarioError([{ path: `${path}.balance`, message: `is lower than the account's history allows: its purchases bring ${-first.net} tokens more than its builds and images spend` }]);
  }
  if (opening < first.peak) {
    throw new ScenarioError([{ path: `${path}.balance`, message: `is too low for the account's history: it spends up to ${first.peak} tokens before failed builds give theirs back, so the balance must be at least ${first.peak + first.net}` }]);
  }
  // No opening purchase draws one id fewer: the builds then get other ids, and other durations.
  if (opening > 0) return { span: first.span, opening, attempt: first.attempt };
  const none = yield* placed(0, 0);
  return { span: none.span, opening, attempt: none.attempt };
}

/**
 * Loads a scenario: checks its shape, rehearses every account on a copy (so a refused request
 * leaves nothing half-made), then makes each account on its own clock, ending at its stated
 * now. The same scenario in a simulator of the same seed and speed gives the same ids and bytes.
 */
export function loadScenario(sim: SimulatorState, handle: InProcessHandle, input: unknown): LoadedScenario {
  return runAtOnce(loadingSteps(sim, handle, input));
}

/** `loadScenario` as steps (see steps.ts): what the control API runs in slices. */
export function* loadingSteps(sim: SimulatorState, handle: InProcessHandle, input: unknown): Steps<LoadedScenario> {
  const problems = scenarioProblems(input);
  if (problems.length > 0) throw everyProblem(sim, handle, input, problems);
  const scenario = input as Scenario;
  const plans = [];
  try {
    for (const [i, spec] of scenario.accounts.entries()) {
      const path = `accounts[${i}]`;
      const end = Date.parse(spec.clock?.at ?? DEFAULT_SCENARIO_TIME);
      const id = accountIdFor(sim, scenario.scenario, spec.name);
      const { span, opening, attempt } = yield* rehearse(sim, handle, spec, path, id, end);
      if (end - span < 0) throw new ScenarioError([{ path: `${path}.clock.at`, message: 'is too early for the builds to have run before it' }]);
      plans.push({ spec, path, id, end, span, opening, attempt });
    }
  } catch (error) {
    throw withEveryProblem(sim, handle, input, error);
  }
  const accounts: Record<string, LoadedAccount> = {};
  for (const plan of plans) {
    // Loaded in slices, another client may have made an account meanwhile: never two of one id.
    if (sim.store.accounts.has(plan.id)) throw new ApiError(409, 'CONFLICT', `The account ${plan.spec.name} of scenario ${scenario.scenario} was made by another load while this one ran: load it again.`, { accountId: plan.id });
    const start = plan.end - plan.span;
    const clock = ownClock(sim.clock, { frozenAt: start });
    const account = sim.store.createAccount(plan.spec.name, start, plan.id);
    account.clock = clock;
    account.openingBalance = plan.opening;
    const made = yield* runAccount(sim, handle, plan.spec, plan.path, { account, clock, opening: plan.opening, real: true, attempt: plan.attempt });
    if (clock.now() !== plan.end) throw new Error(`account ${plan.spec.name} ended at ${toIso(clock.now())}, rehearsed to end at ${toIso(plan.end)}`);
    // A running clock goes on from the stated now; a frozen one stays there until moved.
    if (plan.spec.clock?.running) clock.resume();
    accounts[plan.spec.name] = { ...made, now: toIso(plan.end) };
  }
  return { scenario: scenario.scenario, accounts };
}

/** A rehearsal refused by one call: the problems of all the others with it (not a build that found no room: that is placement's). */
function withEveryProblem(sim: SimulatorState, handle: InProcessHandle, input: unknown, error: unknown): unknown {
  return error instanceof ScenarioError && !(error instanceof PlacementRefused) ? everyProblem(sim, handle, input, error.problems) : error;
}

export function scenarioEntry(scenario: Scenario, loaded: LoadedScenario, loadedAt: number): LoadedScenarioEntry {
  return {
    scenario: loaded.scenario,
    description: scenario.description ?? null,
    loadedAt: toIso(loadedAt),
    accounts: Object.entries(loaded.accounts).map(([name, a]) => ({ name, accountId: a.accountId })),
  };
}
