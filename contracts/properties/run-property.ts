import fc from 'fast-check';
import { ContractFailure, SkipSignal } from '../lib/outcomes.js';
import type { Session } from '../lib/session.js';


/**
 * The seed of the generated inputs: the model phase's (--model-seed), so that one seed replays
 * both, or one drawn for the run. A failure prints it with the shrunk input.
 */
export function propertySeed(s: Session): number {
  const given = s.config.model.seed;
  if (given !== undefined) return given;
  const session = s as Session & { propertySeed?: number };
  session.propertySeed ??= (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  return session.propertySeed;
}

/** How long shrinking a failure may take: each step is a round of requests. */
const SHRINK_MS = 20_000;

/**
 * Runs a property over the server: the examples first (the edges, every enum value), then a few
 * drawn inputs. A failing drawn input is shrunk by fast-check to the smallest that still fails;
 * the failure keeps the rule's message and adds the seed and the input.
 */
export async function runProperty<T>(rule: string, arbitrary: fc.Arbitrary<T>, property: (value: T) => Promise<void>, options: { seed: number; examples: T[]; extraRuns: number }): Promise<void> {
  let skipped: SkipSignal | undefined;
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      try {
        await property(value);
      } catch (e) {
        if (e instanceof SkipSignal) {
          skipped = e;
          return true;
        }
        throw e;
      }
    }),
    { seed: options.seed, numRuns: options.examples.length + options.extraRuns, examples: options.examples.map((e) => [e] as [T]), interruptAfterTimeLimit: SHRINK_MS, markInterruptAsFailure: false },
  );
  if (skipped) throw skipped;
  if (!details.failed) return;
  const cause = details.errorInstance;
  const message = cause instanceof Error ? cause.message : String(cause ?? rule);
  const input = JSON.stringify(details.counterexample?.[0])?.slice(0, 400);
  throw new ContractFailure(`${message.startsWith('openapi') || message.startsWith(rule) ? message : `${rule}: ${message}`}\n    generated input (seed ${options.seed}, ${details.numShrinks} shrink step(s); replay with --model-seed ${options.seed}): ${input}`);
}
