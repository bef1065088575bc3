import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContractFailure, SkipSignal } from '../contracts/shared/outcomes.js';
import { runProperty } from '../contracts/suite/properties/run-property.js';

const RULE = 'openapi.yaml: a rule';

/** A clock that jumps a minute at each read while on: installed before fast-check loads, which keeps its own reference to Date.now. */
const slowServer = vi.hoisted(() => {
  const real = Date.now;
  let offset = 0;
  let on = false;
  Date.now = () => real() + (on ? (offset += 60_000) : offset);
  return { set: (value: boolean) => void (on = value) };
});

afterEach(() => slowServer.set(false));

describe('runProperty: how a property over the server decides', () => {
  it('fails when one input breaks the rule, even if another was refused as unverified', async () => {
    const run = runProperty(RULE, fc.integer({ min: 0, max: 9 }), async (n) => {
      if (n === 3) throw new SkipSignal('the server refused the inferred shape');
      if (n === 7) throw new ContractFailure(`${RULE}: 7 was refused`);
    }, { seed: 1, examples: [3, 7], extraRuns: 0 });
    await expect(run).rejects.toThrow(ContractFailure);
    await expect(run).rejects.toThrow(/7 was refused[\s\S]*generated input \(seed 1/);
  });

  it('is unverified (skipped) when inputs were refused and none broke the rule', async () => {
    const run = runProperty(RULE, fc.constant(1), async () => {
      throw new SkipSignal('the server refused the inferred shape');
    }, { seed: 1, examples: [1], extraRuns: 0 });
    await expect(run).rejects.toThrow(SkipSignal);
  });

  it('runs every input however slow the server is: a failure on the last example is found', async () => {
    // Each read of the clock is a minute later: every run takes longer than any time limit on the runs.
    slowServer.set(true);
    const seen: number[] = [];
    const run = runProperty(RULE, fc.integer({ min: 100, max: 200 }), async (n) => {
      seen.push(n);
      if (n === 5) throw new ContractFailure(`${RULE}: the fifth example`);
    }, { seed: 2, examples: [1, 2, 3, 4, 5], extraRuns: 3 });
    await expect(run).rejects.toThrow(/the fifth example/);
    expect(seen.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shrinks a failing drawn input to the smallest that still fails', async () => {
    const run = runProperty(RULE, fc.integer({ min: 0, max: 1_000_000 }), async (n) => {
      if (n >= 150) throw new ContractFailure(`${RULE}: ${n} is too large`);
    }, { seed: 3, examples: [], extraRuns: 50 });
    await expect(run).rejects.toThrow(/150 is too large[\s\S]*seed 3, [1-9]\d* shrink step\(s\)[\s\S]*: 150$/);
  });
});
