import type { SimulatorState } from '../state/simulator-state.js';
import { ApiError } from '../errors/api-error.js';
import { CommitQueue, type Batch } from './commit-queue.js';
import { checkpointPieces, CheckpointAborted, writeCheckpoint } from './checkpoint.js';
import { listSegments, recordLine, removeSegment, segmentPath, SegmentWriter, syncDirectory, syncDirectoryLater } from './log-file.js';
import { removeStaleTemporaries, writePrivateFile } from './private-file.js';
import { liveStreams, reloadFromDisk, type LiveStreams } from './recover.js';
import { RESERVED_DRAWS } from './replay.js';
import type { HostedSimulator } from './state-file.js';
import { describeProblem, STORAGE_RETRY_AFTER_SECONDS, storageRefusal, storageStep, type StorageProblem } from './storage-failure.js';
import { valueEntries, watchedValues, type WatchedValues } from './watched-values.js';

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
  /** While storage fails, how often the waiting changes are tried again (default: Retry-After). */
  retryMs?: number;
}

/** A checkpoint is written once the log outgrows half the last one (and at least this). */
const MIN_LOG_BYTES = 4 << 20;
/** Ids (four draws each) an account may give before its stream's position must be on disk: half the reserve. */
const IDS_BEFORE_SYNC = RESERVED_DRAWS / 8;

/**
 * The simulation kept in a state file: a write-ahead log of every change, checkpoints written
 * off the request path, and the durability wait for each answer (see `ChangeCapture`).
 *
 * Every durable step happens whole or changes nothing. What can fail is made ready before the
 * live state depends on it: the next segment exists (created exclusively) before a rotation or
 * a replacement needs it, and a replacement is refused at once while storage fails. When a
 * step fails anyway, every answer waiting on it is refused (503, naming the step), and the live
 * simulation is set back to what the files hold, so nothing refused is kept and nothing kept
 * was refused. From then on, until a write succeeds again (retried every second), `/readyz`
 * says storage is failing and every change waits for the disk, in both modes; reads go on.
 */
export class DurableState {
  private segment: SegmentWriter;
  /** The segment after `segment`, made ahead so that no rotation or replacement has to create it then. */
  private spare: SegmentWriter | null = null;
  private readonly queue = new CommitQueue();
  private scheduled = false;
  private flushing: Promise<void> | null = null;
  private checkpointing: Promise<void> | null = null;
  private checkpointBytes = 0;
  private unsynced = false;
  private unsyncedIds = 0;
  private stopping = false;
  /** A replacement's checkpoint is being written: the changes made meanwhile go into it, and wait. */
  private replacing = false;
  /** The live state is being set back to the files': the replacement that does it is not checked. */
  private reloading = false;
  /** Where the id streams stood before the replacement being saved: set back there should it fail. */
  private streamsBeforeReplace: LiveStreams | null = null;
  /** The durable step that failed last, until one succeeds again. */
  private failure: StorageProblem | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly sim: SimulatorState;
  private readonly values: WatchedValues;
  /** The directory entry of the newest segment on its way to the disk: its records count as durable once it is. */
  private directorySynced: Promise<void> = Promise.resolve();

  constructor(
    simulator: HostedSimulator,
    private readonly options: DurableStateOptions,
    /** The segment to append to (after those replayed); undefined: a new state file, checkpointed now. */
    nextSegment: number | undefined,
  ) {
    this.sim = simulator.internal;
    removeStaleTemporaries(options.path);
    const capture = this.sim.store.changes;
    this.sim.store.captureChanges();
    this.values = watchedValues(this.sim);
    for (const value of this.values.all) capture.watch(value);
    if (nextSegment === undefined) {
      // A new state file: the seeded state, whole, before the first answer.
      for (const n of listSegments(options.path)) removeSegment(options.path, n);
      const text = [...checkpointPieces(this.sim, 1)].join('');
      writePrivateFile(options.path, text);
      this.checkpointBytes = text.length;
      nextSegment = 1;
    }
    this.segment = new SegmentWriter(options.path, nextSegment);
    this.makeSpare();
    syncDirectory(options.path);
    // Where the id streams stand now (moved past the reserve after a crash): on disk before the
    // first answer, so a second crash before any write does not give the same ids again.
    this.segment.appendNow(recordLine(valueEntries(this.values)));
    capture.gate = () => this.gate();
    capture.beforeReplace = () => this.checkReplace();
    this.timer = setInterval(() => this.tick(), options.intervalMs);
    this.timer.unref();
  }

  /** After a start that replayed a log: fold it into a checkpoint, in the background. */
  compactSoon(): void {
    this.startCheckpoint();
  }

  /** Why storage fails now, or null. */
  get problem(): StorageProblem | null {
    return this.failure;
  }

  /** Whether, and how long, the answer just made must wait (see Durability). */
  private gate(): Promise<void> | undefined {
    const capture = this.sim.store.changes;
    const idsDue = capture.idsIssued + this.unsyncedIds >= IDS_BEFORE_SYNC;
    const due = capture.dueValues();
    if (!capture.dirty && due.length === 0 && !idsDue) return undefined;
    const { entries, replaced, recordsChanged } = capture.collect();
    this.unsyncedIds += capture.idsIssued;
    capture.idsIssued = 0;
    if (!replaced && entries.length === 0) return undefined;
    const failing = this.failure !== null;
    const streamsOnly = due.every((name) => name === 'streams');
    let wait: boolean;
    if (replaced || this.replacing) wait = true;
    else if (recordsChanged || !streamsOnly) wait = this.options.durability === 'every-write' || failing || due.length > 0 || idsDue;
    else if (due.length > 0 || idsDue) wait = !failing || this.values.streamsNearlyExhausted(capture.loggedText('streams'));
    else wait = false;
    // While storage fails, what no answer waits for (last-used times) is not written: it would only fail again.
    if (!wait && failing) return undefined;
    return this.enqueue(entries, wait, replaced);
  }

  private enqueue(entries: string[], wait: boolean, replace: boolean, barrier = false): Promise<void> | undefined {
    const waited = this.queue.add(entries, wait, replace, barrier);
    this.schedule();
    return waited;
  }

  /** The next flush runs once the current one is done, taking every change made meanwhile: group commit. */
  private schedule(): void {
    // While storage fails, the retry takes what waits: one attempt a second, not one per request.
    if (this.scheduled || this.flushing || this.failure || this.stopping) return;
    this.scheduled = true;
    setImmediate(() => this.runFlush());
  }

  private runFlush(): void {
    this.scheduled = false;
    if (this.flushing) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      if (this.queue.length > 0) this.schedule();
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.shift()!;
      try {
        if (batch.replace) await this.replaceDurably(batch);
        else await this.append(batch);
      } catch (error) {
        this.fail(storageStep('append', this.segment.path, error).problem, batch);
        return;
      }
      this.recovered();
      for (const waiter of batch.waiters) waiter.resolve();
    }
    if (this.segment.bytes >= Math.max(MIN_LOG_BYTES, this.checkpointBytes / 2)) this.startCheckpoint();
  }

  private async append(batch: Batch): Promise<void> {
    const { segment } = this;
    const start = segment.bytes;
    if (batch.entries.length > 0) await segment.append(recordLine(batch.entries));
    if (!batch.sync) {
      this.unsynced ||= batch.entries.length > 0;
      return;
    }
    try {
      await this.syncLog();
    } catch (error) {
      // Written but not on disk: refused, so cut off, or a restart would bring back what was refused.
      try {
        segment.cutTo(start);
      } catch {
        // the reload below reads what the file holds; the step is refused either way
      }
      throw storageStep('sync', segment.path, error);
    }
  }

  private async syncLog(): Promise<void> {
    this.unsynced = false;
    const ids = this.unsyncedIds;
    this.unsyncedIds = 0;
    try {
      await Promise.all([this.segment.sync(), this.directorySynced]);
    } catch (error) {
      this.unsyncedIds += ids;
      this.unsynced = true;
      // The next flush tries the directory again too.
      this.directorySynced = syncDirectoryLater(this.options.path);
      this.directorySynced.catch(() => undefined);
      throw error;
    }
  }

  /**
   * A durable step failed: every answer waiting on it, or on anything after it, is refused, and
   * the live simulation goes back to what the files hold (a restart would find the same).
   */
  private fail(problem: StorageProblem, failed: Batch | undefined): void {
    const batches = [...(failed ? [failed] : []), ...this.queue.takeAll()];
    const first = this.failure === null;
    this.failure = problem;
    this.sim.store.changes.storageProblem = describeProblem(problem);
    if (first) this.options.onError(`content-sim: storage is failing (${describeProblem(problem)}): changes are refused, reads go on; retrying every ${STORAGE_RETRY_AFTER_SECONDS} s\n`);
    if (batches.some((b) => b.replace || b.entries.length > 0)) this.reload(batches.some((b) => b.replace) ? this.streamsBeforeReplace : null);
    const refusal = storageRefusal(problem);
    for (const batch of batches) for (const waiter of batch.waiters) waiter.reject(refusal);
    this.scheduleRetry();
  }

  /** The live simulation set back to the files' (see `reloadFromDisk`). */
  private reload(streams: LiveStreams | null): void {
    const capture = this.sim.store.changes;
    this.reloading = true;
    try {
      // A replacement set the streams back to its snapshot's: those from before it are further on.
      reloadFromDisk(this.sim, this.options.path, streams ?? undefined);
    } catch (error) {
      this.options.onError(`content-sim: cannot read the state file back after a failed write (${(error as Error).message}): the live state may hold refused changes until a restart\n`);
    } finally {
      this.reloading = false;
    }
    // What the reload put in place is what the files hold: nothing of it is to be logged.
    capture.collect();
    capture.idsIssued = 0;
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.stopping) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.retry();
    }, this.options.retryMs ?? STORAGE_RETRY_AFTER_SECONDS * 1000);
    this.retryTimer.unref();
  }

  /** Storage failed: try again what waits, or else a record of where the streams stand, flushed. */
  private retry(): void {
    if (this.stopping || !this.failure) return;
    if (this.flushing) return this.scheduleRetry();
    if (!this.spare) this.makeSpare();
    if (this.queue.length === 0) this.queue.push({ entries: valueEntries(this.values), waiters: [], sync: true, replace: false });
    this.runFlush();
    void (this.flushing as Promise<void> | null)?.finally(() => this.scheduleRetry());
  }

  private recovered(): void {
    if (!this.failure) return;
    this.failure = null;
    this.sim.store.changes.storageProblem = this.spareProblem();
    this.options.onError('content-sim: storage works again: changes are accepted\n');
  }

  private tick(): void {
    // The next segment could not be made ahead (a full disk, a name taken): tried again.
    if (!this.spare && !this.failure && !this.stopping) this.makeSpare();
    // Changes no answer collected (an in-process restore, a sweep): written in the background.
    if (this.sim.store.changes.dirty && !this.flushing) this.gate()?.catch(() => undefined);
    if (this.unsynced && !this.flushing && !this.failure) {
      this.syncLog().catch((error: Error) => this.fail(storageStep('sync', this.segment.path, error).problem, undefined));
    }
  }

  /** Creates the next segment ahead, exclusively: a name someone else took is never used. */
  private makeSpare(): void {
    const n = this.segment.n + 1;
    try {
      this.spare = new SegmentWriter(this.options.path, n);
      this.sim.store.changes.storageProblem = this.failure ? describeProblem(this.failure) : null;
    } catch (error) {
      this.spare = null;
      const problem = storageStep('create', segmentPath(this.options.path, n), error).problem;
      const said = this.sim.store.changes.storageProblem;
      this.sim.store.changes.storageProblem ??= describeProblem(problem);
      // Said once, not at each retry.
      if (said !== describeProblem(problem)) this.options.onError(`content-sim: cannot make the next log segment ready (${describeProblem(problem)}); checkpoints and restores wait until it can be made\n`);
    }
  }

  private spareProblem(): string | null {
    return this.spare ? null : `create of ${segmentPath(this.options.path, this.segment.n + 1)} failed`;
  }

  /** Asked before the whole simulation is replaced: refused now, with nothing changed, when it could not be made durable. */
  private checkReplace(): void {
    if (this.reloading) return;
    if (this.replacing || this.queue.replacing) {
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Another restore or reset is being saved; retry in a moment.', { storage: { step: 'checkpoint', file: this.options.path, reason: 'BUSY' } }, { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) });
    }
    if (this.failure) throw storageRefusal(this.failure, 'The restore');
    if (!this.spare) this.makeSpare();
    if (!this.spare) throw storageRefusal({ step: 'create', file: segmentPath(this.options.path, this.segment.n + 1), reason: 'EEXIST', message: 'the next log segment cannot be made' }, 'The restore');
    this.streamsBeforeReplace = liveStreams(this.sim);
  }

  /** Later changes go to the segment made ahead; the old one is flushed and closed (nothing is writing to it now). */
  private rotate(): boolean {
    if (!this.spare) this.makeSpare();
    const next = this.spare;
    if (!next) return false;
    const old = this.segment;
    this.segment = next;
    this.spare = null;
    this.directorySynced = syncDirectoryLater(this.options.path);
    this.directorySynced.catch(() => undefined);
    this.unsynced = false;
    old.sync().finally(() => old.close()).catch(() => undefined);
    this.makeSpare();
    return true;
  }

  private startCheckpoint(): void {
    if (this.checkpointing || this.stopping || this.failure || this.replacing) return;
    if (!this.rotate()) return;
    const generation = this.sim.store.changes.generation;
    const segment = this.segment.n;
    const aborted = () => this.stopping || this.sim.store.changes.generation !== generation;
    // Before it takes effect, every change it may have read is in the log: a change refused
    // later must not live on in the checkpoint.
    const barrier = () => {
      if (aborted()) return Promise.reject(new CheckpointAborted('the checkpoint was abandoned'));
      this.gate()?.catch(() => undefined);
      return this.enqueue([], true, false, true) ?? Promise.resolve();
    };
    this.checkpointing = writeCheckpoint(this.options.path, checkpointPieces(this.sim, segment), aborted, barrier)
      .then((bytes) => this.afterCheckpoint(bytes, segment))
      .catch((error: Error) => {
        if (!(error instanceof CheckpointAborted) && !(error instanceof ApiError)) this.options.onError(`content-sim: cannot write the state file ${this.options.path}: ${error.message}\n`);
      })
      .finally(() => (this.checkpointing = null));
  }

  /** A checkpoint in place: once its name is on disk, the segments before the one it names go. */
  private async afterCheckpoint(bytes: number, segment: number): Promise<void> {
    this.checkpointBytes = bytes;
    await syncDirectoryLater(this.options.path);
    for (const n of listSegments(this.options.path)) if (n < segment) removeSegment(this.options.path, n);
  }

  /**
   * The whole simulation was replaced (a restore, a reset): a checkpoint of it, naming the
   * segment made ahead, in place of the old one. The changes made on it meanwhile go to that
   * segment, on disk before the rename; the rename is the moment the replacement takes effect.
   * A failure before it leaves the files as they were (the segment emptied again), and the
   * caller sets the live state back to them.
   */
  private async replaceDurably(batch: Batch): Promise<void> {
    // A checkpoint under way describes what is no longer (it stops at its next look): its wait
    // behind this replacement ends now, or neither would ever end.
    this.queue.releaseBarriers();
    await this.checkpointing;
    const next = this.spare;
    if (!next) throw storageStep('create', segmentPath(this.options.path, this.segment.n + 1), new Error('the next log segment cannot be made'));
    this.replacing = true;
    let bytes: number;
    try {
      bytes = await writeCheckpoint(this.options.path, checkpointPieces(this.sim, next.n), () => false, async () => {
        this.gate()?.catch(() => undefined);
        const later = this.queue.takeUntilReplace();
        const entries = later.flatMap((b) => b.entries);
        for (const b of later) batch.waiters.push(...b.waiters);
        try {
          if (entries.length > 0) await next.append(recordLine(entries));
          await next.sync();
        } catch (error) {
          throw storageStep('append', next.path, error);
        }
      });
    } catch (error) {
      try {
        next.empty();
      } catch {
        // Cannot even be emptied: never written to again.
        next.close();
        this.spare = null;
      }
      throw storageStep('checkpoint', this.options.path, error);
    } finally {
      this.replacing = false;
    }
    this.checkpointBytes = bytes;
    const old = this.segment;
    this.segment = next;
    this.spare = null;
    this.unsynced = false;
    this.unsyncedIds = 0;
    old.close();
    this.makeSpare();
    try {
      await syncDirectoryLater(this.options.path);
    } catch (error) {
      // In effect already (the live state and the file agree); only a power loss could undo it.
      this.options.onError(`content-sim: cannot flush the directory of ${this.options.path}: ${(error as Error).message}\n`);
      return;
    }
    for (const n of listSegments(this.options.path)) if (n < next.n) removeSegment(this.options.path, n);
  }

  /** At shutdown: every change on disk, and a mark that the id streams stand exactly where the log says. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    const capture = this.sim.store.changes;
    this.queue.releaseBarriers();
    await this.flushing;
    this.queue.releaseBarriers();
    await this.checkpointing;
    const { entries, replaced } = capture.collect();
    capture.gate = null;
    capture.beforeReplace = null;
    if (entries.length > 0 || replaced) this.enqueue(entries, false, replaced);
    this.failure = null;
    await this.flush();
    // Every value as it stands (streams, clock), then the mark of a clean stop.
    await this.segment.append(recordLine([...valueEntries(this.values), '["Z"]']));
    await this.segment.sync();
    this.segment.close();
    this.spare?.close();
  }
}
