import type { BuildRecord } from './records.js';
import { statusAt, type BuildStatus, type PipelineSchedule } from './schedule.js';

/**
 * One account's builds by status and by target, as ascending list positions, so that a
 * filtered list reads only what matches, however long the history. A build's status is a
 * function of the clock: each build's future status changes wait in a queue ordered by time,
 * and a read first applies those that the clock has reached. Only builds still in the
 * pipeline are tracked that way; finished ones never move again. A build that leaves a
 * status stays in its list as a stale entry (removing from the front of a long array would
 * cost its length) until stale entries are half the list, which is then compacted: O(1)
 * amortized. Readers filter on the status anyway.
 */
export class BuildIndex {
  /** Made with the account's first build: an account without builds holds no maps or queues for them. */
  private tracked: TrackedBuilds | null = null;

  /** Forgets every build: the account was reset. */
  clear(): void {
    this.tracked = null;
  }

  /** A new build, at the end of the list: `seq` is above every position indexed so far. */
  add(seq: number, build: BuildRecord, now: number): void {
    (this.tracked ??= new TrackedBuilds()).add(seq, build, now);
  }

  /**
   * The positions a filtered list must read, ascending: those of the status, or of the target,
   * whichever holds fewer. The caller filters on both (status lists may hold stale entries).
   * Undefined: no filter.
   */
  candidates(now: number, status: BuildStatus | undefined, targetId: string | undefined): readonly number[] | undefined {
    if (status === undefined && targetId === undefined) return undefined;
    return this.tracked === null ? NO_POSITIONS : this.tracked.candidates(now, status, targetId);
  }

  /**
   * Applies every status change the clock has reached: O(changes due). Called on each request
   * of the account (and by the retention sweep), so a finished build's pending changes and
   * in-flight entry are let go soon after it finishes, not kept until a filtered list.
   */
  advance(now: number): void {
    this.tracked?.advance(now);
  }
}

const NO_POSITIONS: readonly number[] = Object.freeze([]);

/** The index of an account that has builds. */
class TrackedBuilds {
  private readonly byStatus = new Map<BuildStatus, number[]>();
  private readonly byTarget = new Map<string, number[]>();
  /** Builds not yet completed or failed: the status the index has them in (their schedules wait in `changes`). */
  private readonly moving = new Map<number, BuildStatus>();
  private readonly changes = new ChangeQueue();
  private readonly stale = new Map<BuildStatus, number>();

  add(seq: number, build: BuildRecord, now: number): void {
    const s = build.schedule;
    const status = statusAt(s, now);
    insertSorted(this.list(this.byStatus, status), seq);
    insertSorted(this.list(this.byTarget, build.targetId), seq);
    if (status === 'completed' || status === 'failed') return;
    this.moving.set(seq, status);
    this.queueNextChange(seq, s, now);
  }

  /**
   * Queues the build's next status change after `now`, if it has one: one entry a build in the
   * pipeline, queued again as each comes due (all five at once held about 50 MB more for a
   * million pending builds).
   */
  private queueNextChange(seq: number, s: PipelineSchedule, now: number): void {
    const end = s.failure ? s.failure.at : s.completeAt;
    if (end <= now) return;
    for (let i = 0; i < 4; i++) {
      const at = s.stageStart(i);
      if (at > now && at < end) return this.changes.push(at, seq, s);
    }
    this.changes.push(end, seq, s);
  }

  candidates(now: number, status: BuildStatus | undefined, targetId: string | undefined): readonly number[] {
    this.advance(now);
    const byStatus = status === undefined ? undefined : (this.byStatus.get(status) ?? []);
    const byTarget = targetId === undefined ? undefined : (this.byTarget.get(targetId) ?? []);
    if (byStatus && byTarget) return byStatus.length <= byTarget.length ? byStatus : byTarget;
    return (byStatus ?? byTarget) as readonly number[];
  }

  advance(now: number): void {
    while (this.changes.size > 0 && this.changes.peekAt() <= now) {
      const schedule = this.changes.peekSchedule();
      const seq = this.changes.pop();
      const left = this.moving.get(seq);
      if (left === undefined) continue;
      const status = statusAt(schedule, now);
      this.queueNextChange(seq, schedule, now);
      if (status === left) continue;
      if (status === 'completed' || status === 'failed') this.moving.delete(seq);
      else this.moving.set(seq, status);
      this.markStale(left);
      insertSorted(this.list(this.byStatus, status), seq);
    }
  }

  private markStale(status: BuildStatus): void {
    const stale = (this.stale.get(status) ?? 0) + 1;
    const list = this.list(this.byStatus, status);
    if (stale * 2 <= list.length) return void this.stale.set(status, stale);
    this.byStatus.set(status, list.filter((seq) => this.moving.get(seq) === status));
    this.stale.set(status, 0);
  }

  private list<K>(map: Map<K, number[]>, key: K): number[] {
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    return list;
  }
}

/** Builds finish roughly in the order they started, so an insert lands near the end: cheap. */
function insertSorted(list: number[], seq: number): void {
  let i = list.length;
  while (i > 0 && (list[i - 1] as number) > seq) i--;
  list.splice(i, 0, seq);
}

/** A binary min-heap of (instant, position, schedule) entries, in three flat arrays. */
class ChangeQueue {
  private at: number[] = [];
  private seq: number[] = [];
  private schedule: PipelineSchedule[] = [];
  /** The most the queue has held since it was last compacted: arrays keep their room when they shrink. */
  private peak = 0;

  get size(): number {
    return this.at.length;
  }

  peekAt(): number {
    return this.at[0] as number;
  }

  peekSchedule(): PipelineSchedule {
    return this.schedule[0] as PipelineSchedule;
  }

  push(at: number, seq: number, schedule: PipelineSchedule): void {
    let i = this.at.length;
    this.at.push(at);
    this.seq.push(seq);
    this.schedule.push(schedule);
    if (this.at.length > this.peak) this.peak = this.at.length;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.at[parent] as number) <= at) break;
      this.move(parent, i);
      i = parent;
    }
    this.at[i] = at;
    this.seq[i] = seq;
    this.schedule[i] = schedule;
  }

  pop(): number {
    const top = this.seq[0] as number;
    const lastAt = this.at.pop() as number;
    const lastSeq = this.seq.pop() as number;
    const lastSchedule = this.schedule.pop() as PipelineSchedule;
    const n = this.at.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const right = left + 1;
        const child = right < n && (this.at[right] as number) < (this.at[left] as number) ? right : left;
        if ((this.at[child] as number) >= lastAt) break;
        this.move(child, i);
        i = child;
      }
      this.at[i] = lastAt;
      this.seq[i] = lastSeq;
      this.schedule[i] = lastSchedule;
    }
    // Once drained to a quarter of its peak, copy to arrays of the size in use: the room a burst
    // of builds reserved (three slots a build in the pipeline) is given back.
    if (n < this.peak >> 2) {
      this.at = this.at.slice();
      this.seq = this.seq.slice();
      this.schedule = this.schedule.slice();
      this.peak = n;
    }
    return top;
  }

  private move(from: number, to: number): void {
    this.at[to] = this.at[from] as number;
    this.seq[to] = this.seq[from] as number;
    this.schedule[to] = this.schedule[from] as PipelineSchedule;
  }
}
