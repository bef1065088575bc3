import fc from 'fast-check';
import { ContractFailure, SkipSignal } from '../../shared/outcomes.js';
import type { Session } from '../session.js';

/**
 * The seed of the generated inputs: the model phase's (--model-seed), so that one seed replays
 * both, or one drawn for the run. A failure prints it with the shrunk input.
 */
export function propertySeed(s: Session): number {
  return s.config.model.seed ?? s.drawnSeed;
}

/** How long shrinking a failure may take: each step is a round of requests. */
const SHRINK_MS = 20_000;

/**
 * Runs a property over the server: the examples first (the edges, every enum value), then a few
 * drawn inputs, every one of them however long the server takes. A failing drawn input is then
 * shrunk by fast-check, for at most SHRINK_MS, to the smallest that still fails; the failure
 * keeps the rule's message and adds the seed and the input. A failure wins over a skip: a run
 * the server refused as unverified does not hide another that broke the rule.
 */
export async function runProperty<T>(rule: string, arbitrary: fc.Arbitrary<T>, property: (value: T) => Promise<void>, options: { seed: number; examples: T[]; extraRuns: number }): Promise<void> {
  let skipped: SkipSignal | undefined;
  const checked = fc.asyncProperty(arbitrary, async (value) => {
    try {
      await property(value);
    } catch (e) {
      if (e instanceof SkipSignal) {
        skipped = e;
        return true;
      }
      throw e;
    }
  });
  const parameters = { seed: options.seed, numRuns: options.examples.length + options.extraRuns, examples: options.examples.map((e) => [e] as [T]) };
  // Every input runs, with no time limit; shrinking, which only makes a failure smaller, is bounded.
  const found = await fc.check(checked, { ...parameters, endOnFailure: true });
  if (!found.failed) {
    if (skipped) throw skipped;
    return;
  }
  const shrunk = await fc.check(checked, { ...parameters, path: found.counterexamplePath ?? undefined, interruptAfterTimeLimit: SHRINK_MS, markInterruptAsFailure: false });
  // An interrupted replay may end before it meets the failure again: then the unshrunk one stands.
  const details = shrunk.failed && shrunk.counterexample ? shrunk : found;
  const cause = details.errorInstance;
  const message = cause instanceof Error ? cause.message : String(cause ?? rule);
  const input = JSON.stringify(details.counterexample?.[0])?.slice(0, 400);
  throw new ContractFailure(`${message.startsWith('openapi') || message.startsWith(rule) ? message : `${rule}: ${message}`}\n    generated input (seed ${options.seed}, ${details.numShrinks} shrink step(s); replay with --model-seed ${options.seed}): ${input}`);
}
