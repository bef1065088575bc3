import type { SimulatorState } from '../state/simulator-state.js';
import type { InProcessHandle } from './calls.js';
import { loadScenario, scenarioEntry, type LoadedScenarioEntry } from './load.js';
import type { LoadedScenario, Scenario } from './types.js';

/**
 * Each simulator's way into its own engine (a scenario is loaded through it) and the scenarios
 * loaded into it, kept beside its state rather than in it: nothing here is saved or restored,
 * and a listing shows only the scenarios whose accounts the simulator still holds.
 */
const simulators = new WeakMap<SimulatorState, { handle: InProcessHandle; loaded: LoadedScenarioEntry[] }>();

export function registerEngine(sim: SimulatorState, handle: InProcessHandle): void {
  simulators.set(sim, { handle, loaded: [] });
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

/** The scenarios loaded, newest last, whose accounts are still there (a reset or a restore takes them away). */
export function loadedScenarios(sim: SimulatorState): LoadedScenarioEntry[] {
  const entry = entryOf(sim);
  entry.loaded = entry.loaded.filter((s) => s.accounts.every((a) => sim.store.account(a.accountId) !== undefined));
  return entry.loaded;
}
