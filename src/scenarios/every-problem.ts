import { ownClock } from '../clock/account-clock.js';
import type { FieldProblem } from '../errors/api-error.js';
import type { SimulatorState } from '../state/simulator-state.js';
import { Account } from '../store/account.js';
import { PlacementRefused, runAccount } from './account-run.js';
import { ScenarioError, type InProcessHandle } from './calls.js';
import { runAtOnce } from '../state/steps.js';
import type { ScenarioAccount } from './types.js';
import { STATUSES } from './check.js';

/** Tokens enough that no call of the collecting run is refused for want of them. */
const PLENTY = 1_000_000_000;
const EARLY = Date.UTC(2026, 0, 5, 9);

/**
 * Every problem of a refused scenario at once, the way the REST API lists every field at
 * fault: the problems already found (its shape, or the first refused call) and those of every
 * call each account would make, each run once more on a copy that nothing else sees, past its
 * refusals (calls that need what a refused one would have made are not sent, so a problem is
 * never counted twice). Only for a scenario already refused: a loadable one never pays for it.
 */
export function everyProblem(sim: SimulatorState, handle: InProcessHandle, input: unknown, found: readonly FieldProblem[]): ScenarioError {
  const problems = [...found];
  const accounts = (input as { accounts?: unknown } | null)?.accounts;
  if (Array.isArray(accounts)) {
    accounts.forEach((spec, i) => {
      if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return;
      const collect: FieldProblem[] = [];
      // A build the API refused leaves nothing to place: the calls after the builds are then run again without them.
      // A build whose status the shape check refused is tried as pending: its body is still the API's to judge.
      const builds = (spec as ScenarioAccount).builds;
      const tried = Array.isArray(builds) ? { ...(spec as ScenarioAccount), builds: builds.map((b) => (b && typeof b === 'object' && !STATUSES.includes(b.status) ? { ...b, status: 'pending' as const, failedAt: undefined } : b)) } : (spec as ScenarioAccount);
      if (!collectFrom(sim, handle, tried, i, collect)) collectFrom(sim, handle, { ...(spec as ScenarioAccount), builds: [] }, i, collect);
      problems.push(...collect);
    });
  }
  const seen = new Set<string>();
  return new ScenarioError(problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  }));
}

/** One collecting run of an account on a copy; answers whether it went to the end. */
function collectFrom(sim: SimulatorState, handle: InProcessHandle, spec: ScenarioAccount, index: number, collect: FieldProblem[]): boolean {
  try {
    const at = Date.parse(spec.clock?.at ?? '');
    const clock = ownClock(sim.clock, { frozenAt: Number.isFinite(at) ? at : EARLY });
    const copy = new Account('scenario-every-problem', String(spec.name ?? ''), clock.now(), sim.seed);
    copy.clock = clock;
    runAtOnce(runAccount(sim, handle, spec, `accounts[${index}]`, { account: copy, clock, opening: PLENTY, real: false, attempt: 0, collect }));
    return true;
  } catch (error) {
    // A part the shape check refused, or one the run cannot go past: what was collected stands.
    if (error instanceof ScenarioError && !(error instanceof PlacementRefused)) collect.push(...error.problems);
    return false;
  }
}
