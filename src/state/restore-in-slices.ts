import { ApiError, validationError } from '../errors/api-error.js';
import type { SimulatorState } from './simulator-state.js';
import { readJsonSteps, JsonReadError, type JsonLimits } from './json-steps.js';
import { restoreSteps } from './snapshot.js';
import { runInSlices, type Steps } from './steps.js';

/**
 * A restore sent over the control API: its bytes read as JSON, checked and built aside a slice
 * at a time (other clients answered in between), then swapped in at once. One at a time per
 * simulator: a second one sent meanwhile is refused at once with 409, before its body is read.
 */

/** No field of a snapshot is longer (the schema's own cap on text), nor nested deeper. */
export const RESTORE_JSON_LIMITS: JsonLimits = { maxStringLength: 1_000_000, maxDepth: 32 };

const restoring = new WeakSet<SimulatorState>();

export function restoreInSlices(sim: SimulatorState, bytes: Uint8Array): Promise<void> {
  if (restoring.has(sim)) {
    throw new ApiError(409, 'CONFLICT', 'Another restore is being read: send this one once that one is answered.', { restoring: true });
  }
  // Refused now, before the work, when the state file could not take it (storage failing, another being saved).
  sim.store.changes.beforeReplace?.();
  restoring.add(sim);
  return runInSlices(readAndRestore(sim, bytes), () => undefined).finally(() => restoring.delete(sim));
}

function* readAndRestore(sim: SimulatorState, bytes: Uint8Array): Steps<void> {
  let input: unknown;
  try {
    input = yield* readJsonSteps(bytes, RESTORE_JSON_LIMITS);
  } catch (error) {
    if (!(error instanceof JsonReadError)) throw error;
    const path = error.path === '' ? 'body' : error.path.startsWith('[') ? `body${error.path}` : `body.${error.path}`;
    throw validationError([{ path, message: error.message }], error.kind === 'limit' ? undefined : `The request body ${error.message}.`);
  }
  yield* restoreSteps(sim, input);
}
