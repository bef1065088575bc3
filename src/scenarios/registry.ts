import type { SimulatorState } from '../state/simulator-state.js';
import type { InProcessHandle } from './calls.js';
import { ApiError } from '../errors/api-error.js';
import { loadingSteps, loadScenario, scenarioEntry, type LoadedScenarioEntry } from './load.js';
import { runInSlices } from '../state/steps.js';
import type { LoadedScenario, Scenario } from './types.js';

/**
 * Each simulator's way into its own engine (a scenario is loaded through it) and the scenarios
 * loaded into it, kept beside its state rather than in it: nothing here is saved or restored,
 * and a listing shows only the scenarios whose accounts the simulator still holds.
 */
const simulators = new WeakMap<SimulatorState, { handle: InProcessHandle; loaded: LoadedScenarioEntry[]; queue: Promise<unknown> }>();

export function registerEngine(sim: SimulatorState, handle: InProcessHandle): void {
  simulators.set(sim, { handle, loaded: [], queue: Promise.resolve() });
}

function entryOf(sim: SimulatorState) {
  const entry = simulators.get(sim);
  if (!entry) throw new Error('this simulator state has no engine registered for scenarios');
  return entry;
}

/** Loads a scenario into the simulator and lists it; throws a ScenarioError naming the paths at fault. */
export function loadInto(sim: SimulatorState, scenario: unknown): LoadedScenario {
  const entry = entryOf(sim);
  const loaded = loadScenario(sim, entry.handle, scenario);
  entry.loaded.push(scenarioEntry(scenario as Scenario, loaded, sim.clock.now()));
  return loaded;
}

/**
 * `loadInto` a slice at a time (a few milliseconds each, other clients answered in between),
 * one load after another. A restore or a reset while it runs replaces the accounts it was
 * making: the load stops there with 409 CONFLICT.
 */
export function loadInSlices(sim: SimulatorState, scenario: unknown): Promise<LoadedScenario> {
  const entry = entryOf(sim);
  const run = entry.queue.then(async () => {
    const generation = sim.store.changes.generation;
    const replaced = () => {
      if (sim.store.changes.generation !== generation) throw new ApiError(409, 'CONFLICT', 'The simulation was restored or reset while the scenario loaded: load it again.', {});
    };
    const loaded = await runInSlices(loadingSteps(sim, entry.handle, scenario), replaced);
    replaced();
    entry.loaded.push(scenarioEntry(scenario as Scenario, loaded, sim.clock.now()));
    return loaded;
  });
  entry.queue = run.catch(() => undefined);
  return run;
}

/** The scenarios loaded, newest last, whose accounts are still there (a reset or a restore takes them away). */
export function loadedScenarios(sim: SimulatorState): LoadedScenarioEntry[] {
  const entry = entryOf(sim);
  entry.loaded = entry.loaded.filter((s) => s.accounts.every((a) => sim.store.account(a.accountId) !== undefined));
  return entry.loaded;
}
