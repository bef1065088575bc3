import { ScenarioError } from '../scenarios/calls.js';
import { loadedScenarios, loadInSlices } from '../scenarios/registry.js';
import { validationError } from '../errors/api-error.js';
import type { ControlHandler } from './context.js';

// Every export of this module is a handler, registered by its operationId.

/**
 * Loads a scenario into fresh accounts, a slice at a time so that other clients are answered
 * meanwhile (the answer comes when it is loaded); a refused one names the paths of the body at fault.
 */
export const loadScenario: ControlHandler = ({ sim, body }) => ({
  status: 201,
  later: loadInSlices(sim, body).then(
    (loaded) => ({ status: 201, json: loaded }),
    (error: unknown) => {
      if (error instanceof ScenarioError) throw validationError(error.problems.map((p) => ({ path: p.path ? `body.${p.path}` : 'body', message: p.message })));
      throw error;
    },
  ),
});

export const listScenarios: ControlHandler = ({ sim }) => ({ status: 200, json: { data: loadedScenarios(sim) } });
