import type { Simulator } from '../simulator.js';
import { StateFileError, restoreFromStateFile } from '../cli/state-file.js';
import { LogFileError, listSegments, readSegment, removeSegment, truncateSegment } from './log-file.js';
import { SnapshotPatch, type ReplayOutcome } from './replay.js';

/** The most a log segment may hold to be read back (a checkpoint is due long before). */
const MAX_SEGMENT_BYTES = 512 * 1024 * 1024;

export interface Recovered {
  /** The segment new records go to. */
  nextSegment: number;
  outcome: ReplayOutcome;
}

/**
 * Start-up from a state file: its checkpoint, then every log segment it names replayed in
 * order; a torn last record (a crash while it was written: never answered) is dropped and cut
 * off, and only that one. The result goes through the same checks as any restore.
 */
export function recoverState(simulator: Simulator, path: string, snapshot: unknown): Recovered {
  const saved = snapshot as { walSegment?: unknown };
  const first = typeof saved.walSegment === 'number' && Number.isSafeInteger(saved.walSegment) && saved.walSegment >= 1 ? saved.walSegment : 1;
  delete saved.walSegment;
  const all = listSegments(path);
  for (const n of all) if (n < first) removeSegment(path, n);
  const segments = all.filter((n) => n >= first);
  segments.forEach((n, i) => {
    if (n !== first + i) throw new StateFileError(`the state log of ${path} misses segment ${first + i}; move the state file and its logs away to start afresh`);
  });
  let patch: SnapshotPatch;
  try {
    patch = new SnapshotPatch(snapshot);
  } catch {
    // Not even the shape of a saved simulation: the restore's checks say what is wrong.
    restoreFromStateFile(simulator, path, snapshot);
    throw new StateFileError(`the state file ${path} is not a saved simulation`);
  }
  try {
    replay: for (const n of segments) {
      const last = n === segments[segments.length - 1];
      const read = readSegment(path, n, MAX_SEGMENT_BYTES, last);
      if (read.torn) truncateSegment(path, n, read.goodBytes);
      for (const [i, record] of read.records.entries()) {
        if (patch.apply(record)) continue;
        // A restore whose checkpoint never came: it and all after it were never answered. Cut
        // off, so that what this start writes next is never read after that mark.
        truncateSegment(path, n, read.starts[i]!);
        for (const later of segments) if (later > n) removeSegment(path, later);
        segments.splice(segments.indexOf(n) + 1);
        break replay;
      }
    }
  } catch (error) {
    if (error instanceof LogFileError) throw new StateFileError(error.message);
    throw error;
  }
  let outcome: ReplayOutcome;
  try {
    outcome = patch.finish();
  } catch (error) {
    if (segments.length === 0) restoreFromStateFile(simulator, path, snapshot);
    throw new StateFileError(`the state log of ${path} cannot be applied: ${(error as Error).message}`);
  }
  restoreFromStateFile(simulator, path, snapshot);
  return { nextSegment: (segments[segments.length - 1] ?? first - 1) + 1, outcome };
}
