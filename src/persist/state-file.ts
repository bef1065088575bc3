import { constants as bufferLimits } from 'node:buffer';
import { ApiError } from '../errors/api-error.js';
import type { SimulatorState } from '../state/simulator-state.js';
import { restoreSnapshot } from '../state/snapshot.js';
import { readPrivateFile, UntrustedFileError } from './private-file.js';

/** A state file that cannot be used: the CLI prints the message and exits. */
export class StateFileError extends Error {}

/**
 * The saved simulation at `path`, or undefined when there is none yet. A file that exists but
 * cannot be read or parsed is an error, never a silent fresh start that would overwrite it.
 */
export function readStateFile(path: string): { seed: string; snapshot: unknown } | undefined {
  let bytes: Uint8Array | undefined;
  try {
    // The longest string the runtime can make: a larger file could never be parsed.
    bytes = readPrivateFile(path, bufferLimits.MAX_STRING_LENGTH);
  } catch (error) {
    if (error instanceof UntrustedFileError) throw new StateFileError(`the state file ${error.message}; not loaded`);
    throw new StateFileError(`cannot read the state file ${path}: ${(error as Error).message}`);
  }
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    // Fatal: a byte that is not UTF-8 would otherwise load silently as U+FFFD, changing the state.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    const reason = error instanceof RangeError ? 'too large to read' : 'not valid UTF-8';
    throw new StateFileError(`the state file ${path} is ${reason}; move it away to start afresh`);
  }
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(`the state file ${path} is not JSON (${(error as Error).message}); move it away to start afresh`);
  }
  const seed = (snapshot as { seed?: unknown } | null)?.seed;
  if (typeof seed !== 'string') throw new StateFileError(`the state file ${path} is not one this simulator wrote (no seed)`);
  return { seed, snapshot };
}

/** A simulator as the durable layer sees it: its state (the `Simulator` of `createSimulator` is one). */
export interface HostedSimulator {
  readonly internal: SimulatorState;
}

/** Restores a simulator from a read state file, or says which fields are at fault. */
export function restoreFromStateFile(simulator: HostedSimulator, path: string, snapshot: unknown): void {
  try {
    restoreSnapshot(simulator.internal, snapshot);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const fields = (error.details as { fields?: Array<{ path: string; message: string }> }).fields ?? [];
    const faults = fields.map((f) => `  ${f.path.replace(/^body\.?/, '') || '(file)'}: ${f.message}`).join('\n');
    throw new StateFileError(`the state file ${path} cannot be restored:\n${faults}`);
  }
}
