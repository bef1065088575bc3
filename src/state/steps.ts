/**
 * Long control work (loading a scenario, reading and checking a restore) is written as steps
 * (a generator that yields between pieces of work), so the same code runs at once (a scenario
 * given at start, the programmatic API) or in slices of a few milliseconds with the event loop
 * free in between (over the control API, where other clients are being answered meanwhile).
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs every step now. */
export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Lets other work run before `then`: after pending I/O on Node, a macrotask in a browser (msw). */
const yieldTurn: (then: () => void) => void = typeof setImmediate === 'function' ? (then) => setImmediate(then) : (then) => setTimeout(then, 0);

/** Longest a slice of a scenario's loading, or of a restore, holds the event loop. */
export const SLICE_MS = 5;

/**
 * Runs the steps a slice at a time, other work let in between; `between` is asked after each
 * pause (it throws to abandon the load: the generator is closed, its `finally` blocks run).
 */
export async function runInSlices<T>(steps: Steps<T>, between: () => void, sliceMs = SLICE_MS): Promise<T> {
  try {
    for (;;) {
      await new Promise<void>((resolve) => yieldTurn(resolve));
      between();
      const until = performance.now() + sliceMs;
      for (;;) {
        const next = steps.next();
        if (next.done) return next.value;
        if (performance.now() >= until) break;
      }
    }
  } finally {
    steps.return(undefined as T);
  }
}
