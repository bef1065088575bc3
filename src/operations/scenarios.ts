import { ScenarioError } from '../scenarios/calls.js';
import { loadedScenarios, loadInto } from '../scenarios/registry.js';
import { validationError } from '../errors/api-error.js';
import type { ControlHandler } from './context.js';

// Every export of this module is a handler, registered by its operationId.

/** Loads a scenario into fresh accounts; a refused one names the paths of the body at fault. */
export const loadScenario: ControlHandler = ({ sim, body }) => {
  try {
    return { status: 201, json: loadInto(sim, body) };
  } catch (error) {
    if (error instanceof ScenarioError) throw validationError(error.problems.map((p) => ({ path: p.path ? `body.${p.path}` : 'body', message: p.message })));
    throw error;
  }
};

export const listScenarios: ControlHandler = ({ sim }) => ({ status: 200, json: { data: loadedScenarios(sim) } });
