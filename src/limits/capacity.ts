import { ApiError } from '../errors/api-error.js';

/**
 * Whether the simulator may store more. The engine only reads the flag (it runs in browsers
 * too, where nothing sets it); the CLI's memory gauge sets it from a sample taken a few times a
 * second, so a request never pays for measuring memory.
 */
export interface Capacity {
  exceeded: boolean;
  /** What was measured against what, for the 503's details. */
  usedMiB: number;
  limitMiB: number;
}

export function unlimitedCapacity(): Capacity {
  return { exceeded: false, usedMiB: 0, limitMiB: 0 };
}

/** Calls that store more: they are refused while the budget is used up. Reads, deletes and resets still work. */
export function growsState(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

export function capacityExceeded(capacity: Capacity): ApiError {
  const retryAfterSeconds = 30;
  return new ApiError(
    503,
    'CAPACITY_EXCEEDED',
    `The simulator's memory budget is used up (${capacity.usedMiB} of ${capacity.limitMiB} MiB): it stores nothing more until room is freed (POST /_sim/reset, or an account's reset). Reads still work.`,
    { retryAfterSeconds, usedMiB: capacity.usedMiB, limitMiB: capacity.limitMiB },
    { 'retry-after': String(retryAfterSeconds) },
  );
}
