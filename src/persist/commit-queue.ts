/**
 * The changes answers made, waiting to be written: batches in order, each written with one
 * append (and one flush for all who wait on it: group commit). A replacement of the whole
 * simulation (a restore, a reset) is a batch of its own.
 */

export interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  /** A checkpoint's wait before it takes effect, not an answer's. */
  barrier?: boolean;
}

export interface Batch {
  entries: string[];
  waiters: Waiter[];
  /** Some answer waits for the disk (fsync), not only for the write. */
  sync: boolean;
  /** The whole simulation was replaced: a checkpoint says so, not a record. */
  replace: boolean;
}

export class CommitQueue {
  private batches: Batch[] = [];

  get length(): number {
    return this.batches.length;
  }

  get replacing(): boolean {
    return this.batches.some((b) => b.replace);
  }

  /** Adds entries to the last batch (a new one for a replacement, or after one); the promise of the wait, when asked. */
  add(entries: string[], wait: boolean, replace: boolean, barrier = false): Promise<void> | undefined {
    let batch = this.batches.at(-1);
    if (!batch || batch.replace || replace) this.batches.push((batch = { entries: [], waiters: [], sync: false, replace }));
    batch.entries.push(...entries);
    batch.sync ||= wait;
    if (!wait) return undefined;
    return new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject, barrier }));
  }

  push(batch: Batch): void {
    this.batches.push(batch);
  }

  shift(): Batch | undefined {
    return this.batches.shift();
  }

  /** Every batch, taken out. */
  takeAll(): Batch[] {
    return this.batches.splice(0);
  }

  /** The batches before the next replacement, taken out. */
  takeUntilReplace(): Batch[] {
    const next = this.batches.findIndex((b) => b.replace);
    return this.batches.splice(0, next === -1 ? this.batches.length : next);
  }

  /** Ends the waits of checkpoints that will not take effect (they look again, and stop). */
  releaseBarriers(): void {
    for (const batch of this.batches) {
      for (const waiter of batch.waiters.filter((w) => w.barrier)) waiter.resolve();
      batch.waiters = batch.waiters.filter((w) => !w.barrier);
    }
  }
}
