/** Scenarios as a library: the format's types, the shipped ones, and reading one from YAML or JSON text with its lines. */
export type { Scenario, ScenarioAccount, ScenarioBuild, ScenarioKey, ScenarioTarget, ScenarioImage, ScenarioChat, LoadedScenario, LoadedAccount, BuildStatusGoal } from './types.js';
export { shippedScenarios, type ShippedScenarioName } from './shipped.js';
export { scenarioProblems } from './check.js';
export { ScenarioError } from './calls.js';
export { readScenarioText, type ScenarioSource } from './source.js';
