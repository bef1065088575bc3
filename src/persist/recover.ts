import type { SimulatorState } from '../state/simulator-state.js';
import { readStateFile, StateFileError, restoreFromStateFile, type HostedSimulator } from './state-file.js';
import { LogFileError, listSegments, readSegment, removeSegment, segmentPath, truncateSegment } from './log-file.js';
import { storageIo as io } from './storage-io.js';
import { SnapshotPatch, type ReplayOutcome } from './replay.js';

/** The most a log segment may hold to be read back (a checkpoint is due long before). */
const MAX_SEGMENT_BYTES = 512 * 1024 * 1024;

export interface RecoverOptions {
  /** A whole last record that fails its check is dropped (and said so) instead of refusing the start. */
  acceptDamagedTail?: boolean;
  /** Told what recovery chose to drop. */
  notice?: (line: string) => void;
  /** Where the id streams stand, to keep instead of the log's (an in-process reload: they are ahead of it). */
  streams?: LiveStreams;
}

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
export function recoverState(simulator: HostedSimulator, path: string, snapshot: unknown, options: RecoverOptions = {}): Recovered {
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
  // Empty segments at the end (made ready ahead, never written) do not count: the last written one may be torn.
  let lastWritten = segments.length - 1;
  while (lastWritten > 0 && sizeOf(segmentPath(path, segments[lastWritten]!)) === 0) lastWritten--;
  try {
    segments.forEach((n, i) => {
      const read = readSegment(path, n, MAX_SEGMENT_BYTES, i >= lastWritten, options);
      if (read.damagedAt !== undefined) options.notice?.(`content-sim: --accept-damaged-tail: dropped the damaged last record of ${segmentPath(path, n)} at byte ${read.damagedAt}\n`);
      if (read.torn) truncateSegment(path, n, read.goodBytes);
      for (const [j, record] of read.records.entries()) {
        if (patch.apply(record)) continue;
        // The mark of a replacement whose checkpoint never came (written by earlier versions,
        // before the answer): what follows it was made on a state no file holds. Nothing may
        // follow it; should anything, it was answered, and it is never dropped silently.
        const later = j < read.records.length - 1 || segments.slice(i + 1).some((m) => sizeOf(segmentPath(path, m)) > 0);
        if (later) throw new StateFileError(`the state log ${segmentPath(path, n)} has records after an unfinished restore at byte ${read.starts[j]}: they cannot be applied; move the state file and its logs away to start afresh`);
        truncateSegment(path, n, read.starts[j]!);
        // Only empty segments made ahead follow: gone, so the next one written comes right after.
        for (const m of segments.splice(i + 1)) removeSegment(path, m);
        return;
      }
    });
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
  if (options.streams) keepStreams(snapshot, options.streams);
  restoreFromStateFile(simulator, path, snapshot);
  return { nextSegment: (segments[segments.length - 1] ?? first - 1) + 1, outcome };
}

function sizeOf(path: string): number {
  try {
    return io.lstatSync(path).size;
  } catch {
    return 0;
  }
}

/** Where every id stream stands in the live simulation. */
export interface LiveStreams {
  streams: unknown;
  accounts: Map<string, unknown>;
}

export function liveStreams(sim: SimulatorState): LiveStreams {
  return {
    streams: { ...sim.store.streams, correlationIds: sim.correlationIds.getState() },
    accounts: new Map([...sim.store.accounts.values()].map((account) => [account.id, account.idStreamState])),
  };
}

/** The live positions put into a recovered snapshot: ids given since (even by refused changes) are not given again. */
function keepStreams(snapshot: unknown, live: LiveStreams): void {
  const saved = snapshot as { streams: unknown; accounts: Array<{ id: string; idStream: unknown }> };
  saved.streams = live.streams;
  for (const account of saved.accounts) if (live.accounts.has(account.id)) account.idStream = live.accounts.get(account.id);
}

/**
 * The live simulation set back to what its files hold: after a durable step failed, what it
 * would have kept is dropped, as a restart would drop it, while the id streams stay where they
 * are. Costs a read of the files (a failure's price, not a request's).
 */
export function reloadFromDisk(sim: SimulatorState, path: string, streams: LiveStreams = liveStreams(sim)): Recovered {
  const saved = readStateFile(path);
  if (!saved) throw new StateFileError(`the state file ${path} is gone`);
  return recoverState({ internal: sim }, path, saved.snapshot, { streams, acceptDamagedTail: false });
}

/**
 * After a durable step failed: the live simulation set back to the files' (see `reloadFromDisk`),
 * the streams to `streams` when given (a replacement set them back to its snapshot's: those from
 * before it are further on). The reload itself replaces the simulation: it is not asked about.
 */
export function reloadAfterFailure(sim: SimulatorState, path: string, streams: LiveStreams | null, onError: (message: string) => void): void {
  const capture = sim.store.changes;
  const check = capture.beforeReplace;
  capture.beforeReplace = null;
  try {
    reloadFromDisk(sim, path, streams ?? undefined);
  } catch (error) {
    onError(`content-sim: cannot read the state file back after a failed write (${(error as Error).message}): the live state may hold refused changes until a restart\n`);
  } finally {
    capture.beforeReplace = check;
  }
  // What the reload put in place is what the files hold: nothing of it is to be logged.
  capture.collect();
  capture.idsIssued = 0;
}
