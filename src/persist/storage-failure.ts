import { ApiError } from '../errors/api-error.js';

/**
 * A durable step that failed (a write, a flush, a file made or renamed), told to the callers
 * it concerns as 503 `SERVICE_UNAVAILABLE`, with `details.storage` naming the step, the file
 * and the system's reason, and a `Retry-After`: the disk may have room again by then.
 */

export const STORAGE_RETRY_AFTER_SECONDS = 1;

export interface StorageProblem {
  /** What was being done: `append`, `sync`, `checkpoint`, `create`, `rename`, `truncate`. */
  step: string;
  file: string;
  /** The system's code (ENOSPC, EIO, EEXIST, EACCES, ...) or `ERROR`. */
  reason: string;
  message: string;
}

export class StorageStepError extends Error {
  constructor(readonly problem: StorageProblem) {
    super(problem.message);
  }
}

/** Wraps a file-system error as the step it failed. */
export function storageStep(step: string, file: string, error: unknown): StorageStepError {
  if (error instanceof StorageStepError) return error;
  const reason = (error as NodeJS.ErrnoException | undefined)?.code ?? 'ERROR';
  return new StorageStepError({ step, file, reason, message: (error as Error | undefined)?.message ?? String(error) });
}

/** The answer to a caller whose change could not be made durable: it was not made. */
export function storageRefusal(problem: StorageProblem, what = 'The change'): ApiError {
  return new ApiError(
    503,
    'SERVICE_UNAVAILABLE',
    `${what} could not be saved to the state file (${problem.step} of ${problem.file}: ${problem.reason}); it was not made. Retry in ${STORAGE_RETRY_AFTER_SECONDS} s.`,
    { storage: { step: problem.step, file: problem.file, reason: problem.reason } },
    { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
  );
}

/** The one line `/readyz` and the log say while storage fails. */
export function describeProblem(problem: StorageProblem): string {
  return `${problem.step} of ${problem.file} failed: ${problem.reason}`;
}
