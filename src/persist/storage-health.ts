import type { ChangeCapture } from '../store/change-capture.js';
import { describeProblem, STORAGE_RETRY_AFTER_SECONDS, storageStep, type StorageProblem } from './storage-failure.js';

/**
 * Whether storage works, as `/readyz` and the server's log tell it: the durable step that
 * failed last (until one succeeds again), or the next log segment that cannot be made ahead;
 * each said once when it starts, and once when it ends. While it fails, the waiting changes are
 * tried again on a timer, not once per request.
 */
export class StorageHealth {
  /** The durable step that failed last, until one succeeds again. */
  failure: StorageProblem | null = null;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly capture: ChangeCapture,
    private readonly onError: (message: string) => void,
    private readonly retryMs: number,
  ) {}

  failed(problem: StorageProblem): void {
    const first = this.failure === null;
    this.failure = problem;
    this.capture.storageProblem = describeProblem(problem);
    if (first) this.onError(`content-sim: storage is failing (${describeProblem(problem)}): changes are refused, reads go on; retrying every ${STORAGE_RETRY_AFTER_SECONDS} s\n`);
  }

  /** A durable step succeeded; `spareMissing` says whether the next segment is still to be made. */
  recovered(spareMissing: string | null): void {
    if (!this.failure) return;
    this.failure = null;
    this.capture.storageProblem = spareMissing;
    this.onError('content-sim: storage works again: changes are accepted\n');
  }

  /** The next segment was made ahead: only a failing step is left to report. */
  spareMade(): void {
    this.capture.storageProblem = this.failure ? describeProblem(this.failure) : null;
  }

  /** The next segment could not be made ahead: said once, not at each retry. */
  spareNotMade(file: string, error: unknown): void {
    const problem = describeProblem(storageStep('create', file, error).problem);
    const said = this.capture.storageProblem;
    this.capture.storageProblem ??= problem;
    if (said !== problem) this.onError(`content-sim: cannot make the next log segment ready (${problem}); checkpoints and restores wait until it can be made\n`);
  }

  /** Runs `retry` once after the retry delay (one timer at a time). */
  retryLater(retry: () => void): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      retry();
    }, this.retryMs);
    this.retryTimer.unref();
  }

  stop(): void {
    clearTimeout(this.retryTimer);
    this.failure = null;
  }
}
