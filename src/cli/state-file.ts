import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ApiError } from '../engine/api-error.js';
import type { Simulator } from '../simulator.js';
import { takeSnapshot, type SimulationSnapshot } from '../state/snapshot.js';

/** A state file that cannot be used: the CLI prints the message and exits. */
export class StateFileError extends Error {}

/**
 * The saved simulation at `path`, or undefined when there is none yet. A file that exists but
 * cannot be read or parsed is an error, never a silent fresh start that would overwrite it.
 */
export function readStateFile(path: string): { seed: string; snapshot: unknown } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read the state file ${path}: ${(error as Error).message}`);
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

/** Restores a simulator from a read state file, or says which fields are at fault. */
export function restoreFromStateFile(simulator: Simulator, path: string, snapshot: unknown): void {
  try {
    simulator.restore(snapshot);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const fields = (error.details as { fields?: Array<{ path: string; message: string }> }).fields ?? [];
    const faults = fields.map((f) => `  ${f.path.replace(/^body\.?/, '') || '(file)'}: ${f.message}`).join('\n');
    throw new StateFileError(`the state file ${path} cannot be restored:\n${faults}`);
  }
}

/**
 * Writes the simulation to `path` now, on an interval, and at the end: each time to a
 * temporary file that is flushed to disk and then renamed over the old one, so a crash at
 * any moment leaves either the previous state or the new one, never a torn file. An
 * unchanged simulation is not written again.
 */
export class StateWriter {
  private lastBody = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly simulator: Simulator,
    private readonly path: string,
    private readonly intervalMs: number,
    private readonly onError: (message: string) => void,
  ) {}

  /** Writes once (so an unwritable path fails at start, not minutes later), then every interval. */
  start(): void {
    this.save();
    this.timer = setInterval(() => {
      try {
        this.save();
      } catch (error) {
        this.onError(`content-sim: cannot write the state file ${this.path}: ${(error as Error).message}\n`);
      }
    }, this.intervalMs);
    this.timer.unref();
  }

  /** The last write, at shutdown. */
  stop(): void {
    clearInterval(this.timer);
    this.save();
  }

  save(): void {
    const { savedAt, ...rest }: SimulationSnapshot = takeSnapshot(this.simulator.sim);
    const body = JSON.stringify(rest);
    if (body === this.lastBody) return;
    // savedAt first, then the rest as compared: one serialization of a state that may be large.
    writeAtomically(this.path, `{"savedAt":${savedAt},${body.slice(1)}\n`);
    this.lastBody = body;
  }
}

function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  // The rename itself must reach the disk too.
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
