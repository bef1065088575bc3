import type { SimulatorState } from '../state/simulator-state.js';
import { ApiError } from '../errors/api-error.js';
import { CommitQueue, type Batch } from './commit-queue.js';
import { mustWait, type DurableStateOptions } from './durable-options.js';
import { checkpointPieces, CheckpointAborted, writeCheckpoint } from './checkpoint.js';
import { listSegments, recordLine, removeSegment, syncDirectory } from './log-file.js';
import { LogSegments } from './log-segments.js';
import { removeStaleTemporaries, writePrivateFile } from './private-file.js';
import { liveStreams, reloadAfterFailure, type LiveStreams } from './recover.js';
import { RESERVED_DRAWS } from './replay.js';
import type { HostedSimulator } from './state-file.js';
import { STORAGE_RETRY_AFTER_SECONDS, storageRefusal, storageStep, type StorageProblem } from './storage-failure.js';
import { StorageHealth } from './storage-health.js';
import { valueEntries, watchedValues, type WatchedValues } from './watched-values.js';

export type { Durability, DurableStateOptions } from './durable-options.js';

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
  private readonly segments: LogSegments;
  private readonly health: StorageHealth;
  private readonly queue = new CommitQueue();
  private scheduled = false;
  private flushing: Promise<void> | null = null;
  private checkpointing: Promise<void> | null = null;
  private checkpointBytes = 0;
  private unsyncedIds = 0;
  private stopping = false;
  /** A replacement's checkpoint is being written: the changes made meanwhile go into it, and wait. */
  private replacing = false;
  /** Where the id streams stood before the replacement being saved: set back there should it fail. */
  private streamsBeforeReplace: LiveStreams | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly sim: SimulatorState;
  private readonly values: WatchedValues;

  constructor(
    simulator: HostedSimulator,
    private readonly options: DurableStateOptions,
    /** The segment to append to (after those replayed); undefined: a new state file, checkpointed now. */
    nextSegment: number | undefined,
  ) {
    this.sim = simulator.internal;
    removeStaleTemporaries(options.path);
    const capture = this.sim.store.changes;
    this.health = new StorageHealth(capture, options.onError, options.retryMs ?? STORAGE_RETRY_AFTER_SECONDS * 1000);
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
    this.segments = new LogSegments(options.path, nextSegment);
    this.makeSpare();
    syncDirectory(options.path);
    // Where the id streams stand now (moved past the reserve after a crash): on disk before the
    // first answer, so a second crash before any write does not give the same ids again.
    this.segments.current.appendNow(recordLine(valueEntries(this.values)));
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
    return this.health.failure;
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
    const failing = this.health.failure !== null;
    const wait = mustWait(this.options.durability, {
      replaced: replaced || this.replacing, recordsChanged, due, idsDue, failing,
      streamsNearlyExhausted: () => this.values.streamsNearlyExhausted(capture.loggedText('streams')),
    });
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
    if (this.scheduled || this.flushing || this.health.failure || this.stopping) return;
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
        else await this.segments.write(batch.entries, batch.sync ? () => this.syncLog() : null);
      } catch (error) {
        this.fail(storageStep('append', this.segments.current.path, error).problem, batch);
        return;
      }
      this.recovered();
      for (const waiter of batch.waiters) waiter.resolve();
    }
    if (this.segments.current.bytes >= Math.max(MIN_LOG_BYTES, this.checkpointBytes / 2)) this.startCheckpoint();
  }

  /** The log on disk, and with it the ids issued so far. */
  private async syncLog(): Promise<void> {
    const ids = this.unsyncedIds;
    this.unsyncedIds = 0;
    try {
      await this.segments.sync();
    } catch (error) {
      this.unsyncedIds += ids;
      throw error;
    }
  }

  /**
   * A durable step failed: every answer waiting on it, or on anything after it, is refused, and
   * the live simulation goes back to what the files hold (a restart would find the same).
   */
  private fail(problem: StorageProblem, failed: Batch | undefined): void {
    const batches = [...(failed ? [failed] : []), ...this.queue.takeAll()];
    this.health.failed(problem);
    if (batches.some((b) => b.replace || b.entries.length > 0)) {
      reloadAfterFailure(this.sim, this.options.path, batches.some((b) => b.replace) ? this.streamsBeforeReplace : null, this.options.onError);
    }
    const refusal = storageRefusal(problem);
    for (const batch of batches) for (const waiter of batch.waiters) waiter.reject(refusal);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (!this.stopping) this.health.retryLater(() => this.retry());
  }

  /** Storage failed: try again what waits, or else a record of where the streams stand, flushed. */
  private retry(): void {
    if (this.stopping || !this.health.failure) return;
    if (this.flushing) return this.scheduleRetry();
    if (!this.segments.spare) this.makeSpare();
    if (this.queue.length === 0) this.queue.push({ entries: valueEntries(this.values), waiters: [], sync: true, replace: false });
    this.runFlush();
    void (this.flushing as Promise<void> | null)?.finally(() => this.scheduleRetry());
  }

  private recovered(): void {
    this.health.recovered(this.segments.spare ? null : `create of ${this.segments.nextPath} failed`);
  }

  private tick(): void {
    // The next segment could not be made ahead (a full disk, a name taken): tried again.
    if (!this.segments.spare && !this.health.failure && !this.stopping) this.makeSpare();
    // Changes no answer collected (an in-process restore, a sweep): written in the background.
    if (this.sim.store.changes.dirty && !this.flushing) this.gate()?.catch(() => undefined);
    if (this.segments.unsynced && !this.flushing && !this.health.failure) {
      this.syncLog().catch((error: Error) => this.fail(storageStep('sync', this.segments.current.path, error).problem, undefined));
    }
  }

  /** Creates the next segment ahead, exclusively: a name someone else took is never used. */
  private makeSpare(): void {
    try {
      this.segments.makeSpare();
      this.health.spareMade();
    } catch (error) {
      this.health.spareNotMade(this.segments.nextPath, error);
    }
  }

  /** Asked before the whole simulation is replaced: refused now, with nothing changed, when it could not be made durable. */
  private checkReplace(): void {
    if (this.replacing || this.queue.replacing) {
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'Another restore or reset is being saved; retry in a moment.', { storage: { step: 'checkpoint', file: this.options.path, reason: 'BUSY' } }, { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) });
    }
    if (this.health.failure) throw storageRefusal(this.health.failure, 'The restore');
    if (!this.segments.spare) this.makeSpare();
    if (!this.segments.spare) throw storageRefusal({ step: 'create', file: this.segments.nextPath, reason: 'EEXIST', message: 'the next log segment cannot be made' }, 'The restore');
    this.streamsBeforeReplace = liveStreams(this.sim);
  }

  /** Later changes go to the segment made ahead (see `LogSegments.rotate`), and the one after is made. */
  private rotate(): boolean {
    if (!this.segments.spare) this.makeSpare();
    if (!this.segments.rotate()) return false;
    this.makeSpare();
    return true;
  }

  private startCheckpoint(): void {
    if (this.checkpointing || this.stopping || this.health.failure || this.replacing) return;
    if (!this.rotate()) return;
    const generation = this.sim.store.changes.generation;
    const segment = this.segments.current.n;
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
    await this.segments.dropBefore(segment);
  }

  /**
   * The whole simulation was replaced (a restore, a reset): a checkpoint of it in place of the
   * old one (see `LogSegments.replace`), with the changes made on it meanwhile in the segment it
   * names. A failure leaves the files as they were, and the caller sets the live state back to them.
   */
  private async replaceDurably(batch: Batch): Promise<void> {
    // A checkpoint under way describes what is no longer (it stops at its next look): its wait
    // behind this replacement ends now, or neither would ever end.
    this.queue.releaseBarriers();
    await this.checkpointing;
    this.replacing = true;
    let bytes: number;
    try {
      bytes = await this.segments.replace((n) => checkpointPieces(this.sim, n), async (next) => {
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
    } finally {
      this.replacing = false;
    }
    this.checkpointBytes = bytes;
    this.unsyncedIds = 0;
    this.makeSpare();
    await this.segments.dropBefore(this.segments.current.n, this.options.onError);
  }

  /** At shutdown: every change on disk, and a mark that the id streams stand exactly where the log says. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    const capture = this.sim.store.changes;
    this.queue.releaseBarriers();
    await this.flushing;
    this.queue.releaseBarriers();
    await this.checkpointing;
    const { entries, replaced } = capture.collect();
    capture.gate = null;
    capture.beforeReplace = null;
    if (entries.length > 0 || replaced) this.enqueue(entries, false, replaced);
    this.health.stop();
    await this.flush();
    // Every value as it stands (streams, clock), then the mark of a clean stop.
    await this.segments.current.append(recordLine([...valueEntries(this.values), '["Z"]']));
    await this.segments.current.sync();
    this.segments.close();
  }
}
