import type { Simulator } from '../simulator.js';
import type { SimulatorState } from '../state/simulator-state.js';
import { HEAD_FIELDS_LOGGED_BY_NAME, snapshotHead } from '../state/snapshot.js';
import type { CapturedValue } from '../store/change-capture.js';
import { removeStaleTemporaries, writePrivateFile } from '../cli/private-file.js';
import { checkpointPieces, CheckpointAborted, writeCheckpoint } from './checkpoint.js';
import { listSegments, recordLine, removeSegment, SegmentWriter, syncDirectory, syncDirectoryLater } from './log-file.js';
import { RESERVED_DRAWS } from './replay.js';

/**
 * `every-write`: an answer that reports a change is sent once the change is in the log on disk
 * (fsync), one fsync shared by every answer waiting meanwhile (group commit). `interval`: the
 * log is written as changes come, without waiting, and flushed to disk every interval.
 */
export type Durability = 'every-write' | 'interval';

export interface DurableStateOptions {
  path: string;
  durability: Durability;
  /** interval: how often the log is flushed to disk. Both: how often a checkpoint is considered. */
  intervalMs: number;
  onError: (message: string) => void;
}

/** A checkpoint is written once the log outgrows half the last one (and at least this). */
const MIN_LOG_BYTES = 4 << 20;
/** Ids (four draws each) an account may give before its stream's position must be on disk: half the reserve. */
const IDS_BEFORE_SYNC = RESERVED_DRAWS / 8;

/**
 * The simulation kept in a state file: a write-ahead log of every change, checkpoints written
 * off the request path, and the durability wait for each answer (see `ChangeCapture`).
 */
export class DurableState {
  private segment: SegmentWriter;
  private waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private syncWanted = false;
  private scheduled = false;
  private flushing: Promise<void> | null = null;
  private checkpointing: Promise<void> | null = null;
  private checkpointBytes = 0;
  private unsynced = false;
  private unsyncedIds = 0;
  private stopping = false;
  /** A flush failed: what it held is only in memory until a checkpoint writes everything again. */
  private lost = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly sim: SimulatorState;
  /** The directory entry of the newest segment on its way to the disk: its records count as durable once it is. */
  private directorySynced: Promise<void> = Promise.resolve();

  constructor(
    simulator: Simulator,
    private readonly options: DurableStateOptions,
    /** The segment to append to (after those replayed); undefined: a new state file, checkpointed now. */
    nextSegment: number | undefined,
  ) {
    this.sim = simulator.internal;
    removeStaleTemporaries(options.path);
    const capture = this.sim.store.changes;
    this.sim.store.captureChanges();
    for (const value of watchedValues(this.sim)) capture.watch(value);
    if (nextSegment === undefined) {
      // A new state file: the seeded state, whole, before the first answer.
      for (const n of listSegments(options.path)) removeSegment(options.path, n);
      const text = [...checkpointPieces(this.sim, 1)].join('');
      writePrivateFile(options.path, text);
      this.checkpointBytes = text.length;
      nextSegment = 1;
    }
    this.segment = new SegmentWriter(options.path, nextSegment);
    syncDirectory(options.path);
    // Where the id streams stand now (moved past the reserve after a crash): on disk before the
    // first answer, so a second crash before any write does not give the same ids again.
    this.segment.appendNow(recordLine(watchedValues(this.sim).map((v) => `["v",${JSON.stringify(v.name)},${v.read()}]`)));
    capture.gate = () => this.gate();
    this.timer = setInterval(() => this.tick(), options.intervalMs);
    this.timer.unref();
  }

  /** After a start that replayed a log: fold it into a checkpoint, in the background. */
  compactSoon(): void {
    this.startCheckpoint();
  }

  /** Whether, and how long, the answer just made must wait (see Durability). */
  private gate(): Promise<void> | undefined {
    const capture = this.sim.store.changes;
    const idsDue = capture.idsIssued + this.unsyncedIds >= IDS_BEFORE_SYNC;
    const valuesDue = capture.valuesDue;
    if (!capture.dirty && !valuesDue && !idsDue) return undefined;
    const wait = this.options.durability === 'every-write' || valuesDue || idsDue;
    const committed = this.commit(wait);
    if (wait) return committed;
    committed.catch(() => undefined);
    return undefined;
  }

  private commit(sync: boolean): Promise<void> {
    if (sync) this.syncWanted = true;
    const promise = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.schedule();
    return promise;
  }

  /** The next flush runs once the current one is done, taking every change made meanwhile: group commit. */
  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        if (this.waiters.length > 0) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const waiters = this.waiters.splice(0);
    const sync = this.syncWanted || this.options.durability === 'every-write';
    this.syncWanted = false;
    const capture = this.sim.store.changes;
    try {
      const { entries, replaced, mustSync } = capture.collect();
      const ids = capture.idsIssued;
      capture.idsIssued = 0;
      if (replaced) {
        await this.checkpointAfterRestore();
      } else if (entries.length > 0) {
        await this.segment.append(recordLine(entries));
        this.unsyncedIds += ids;
        if (sync && mustSync) await this.syncLog();
        else this.unsynced = true;
      }
      for (const waiter of waiters) waiter.resolve();
      if (this.lost && !this.checkpointing) {
        this.lost = false;
        this.startCheckpoint();
      }
    } catch (error) {
      this.lost = true;
      this.options.onError(`content-sim: cannot write the state log of ${this.options.path}: ${(error as Error).message}\n`);
      for (const waiter of waiters) waiter.reject(error);
    }
    if (this.segment.bytes >= Math.max(MIN_LOG_BYTES, this.checkpointBytes / 2)) this.startCheckpoint();
  }

  private async syncLog(): Promise<void> {
    this.unsynced = false;
    this.unsyncedIds = 0;
    await Promise.all([this.segment.sync(), this.directorySynced]);
  }

  private tick(): void {
    if (this.unsynced && !this.flushing) {
      this.syncLog().catch((error: Error) => this.options.onError(`content-sim: cannot flush the state log: ${error.message}\n`));
    }
  }

  /** Later changes go to a new segment; the old one is flushed and closed (nothing is writing to it now). */
  private rotate(): void {
    const old = this.segment;
    this.segment = new SegmentWriter(this.options.path, old.n + 1);
    this.directorySynced = syncDirectoryLater(this.options.path);
    this.directorySynced.catch(() => undefined);
    this.unsynced = false;
    old.sync().finally(() => old.close()).catch(() => undefined);
  }

  private startCheckpoint(): void {
    if (this.checkpointing || this.stopping) return;
    this.rotate();
    const generation = this.sim.store.changes.generation;
    this.checkpointing = this.checkpoint(() => this.stopping || this.sim.store.changes.generation !== generation)
      .catch((error: Error) => {
        if (!(error instanceof CheckpointAborted)) this.options.onError(`content-sim: cannot write the state file ${this.options.path}: ${error.message}\n`);
      })
      .finally(() => (this.checkpointing = null));
  }

  /** A checkpoint starting now, named after the segment now written; older segments go once it is in place. */
  private async checkpoint(aborted: () => boolean): Promise<void> {
    const segment = this.segment.n;
    this.checkpointBytes = await writeCheckpoint(this.options.path, checkpointPieces(this.sim, segment), aborted);
    for (const n of listSegments(this.options.path)) if (n < segment) removeSegment(this.options.path, n);
  }

  /**
   * The whole simulation was replaced (a restore, a reset): no log entry says that, so a
   * checkpoint does, and the answers wait for it. A mark in the log first: should the process
   * die before the checkpoint is in place, the start replays up to the mark and no further
   * (nothing after it was answered).
   */
  private async checkpointAfterRestore(): Promise<void> {
    await this.checkpointing;
    await this.segment.append(recordLine(['["R"]']));
    await this.segment.sync();
    this.rotate();
    await this.checkpoint(() => this.stopping);
    this.unsyncedIds = 0;
  }

  /** At shutdown: every change on disk, and a mark that the id streams stand exactly where the log says. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.sim.store.changes.gate = null;
    await this.flushing;
    await this.checkpointing;
    const { entries, replaced } = this.sim.store.changes.collect();
    if (replaced) {
      this.stopping = false;
      await this.checkpointAfterRestore();
    } else if (entries.length > 0) {
      await this.segment.append(recordLine(entries));
    }
    // Every value as it stands (streams, clock), then the mark of a clean stop.
    await this.segment.append(recordLine([...watchedValues(this.sim).map((v) => `["v",${JSON.stringify(v.name)},${v.read()}]`), '["Z"]']));
    await this.segment.sync();
    this.segment.close();
  }
}

/** The simulator-wide values the log keeps: the clock's setting, and where the id streams stand. */
function watchedValues(sim: SimulatorState): CapturedValue[] {
  const clock: CapturedValue = {
    name: 'clock',
    read: () => JSON.stringify(sim.clock.setting()),
    // Set anew (frozen, advanced): an answer that says so waits for the log.
    due: (logged) => JSON.stringify(sim.clock.setting()) !== logged,
  };
  let lastLogged = '';
  let loggedDraws: number[] = [];
  const streams: CapturedValue = {
    name: 'streams',
    read: () => JSON.stringify({ ...sim.store.streams, correlationIds: sim.correlationIds.getState() }),
    // Correlation ids are given on every answer: their position is logged before half the reserve is used.
    due: (logged) => {
      if (logged !== lastLogged) {
        lastLogged = logged;
        const parsed = JSON.parse(logged) as Record<string, number[]>;
        loggedDraws = ['ids', 'keyValues', 'correlationIds'].map((name) => parsed[name]?.[3] ?? 0);
      }
      const now = [sim.store.streams.ids[3], sim.store.streams.keyValues[3], sim.correlationIds.getState()[3]];
      return now.some((d, i) => ((d - (loggedDraws[i] as number)) >>> 0) >= RESERVED_DRAWS / 2);
    },
  };
  // Whatever else the snapshot's head holds, recorded whole when it changes (nothing today: what
  // grows with the accounts is kept in them, as records).
  const extra = () => {
    const head: Record<string, unknown> = snapshotHead(sim);
    for (const name of HEAD_FIELDS_LOGGED_BY_NAME) delete head[name];
    return JSON.stringify(head);
  };
  const extras: CapturedValue = { name: 'extras', read: extra, due: (logged) => extra() !== logged };
  return [clock, streams, extras];
}
