import { expect } from 'vitest';
import { assertContract } from '../support/contract.js';

/**
 * /healthz of a server doing long control work, asked again and again beside an idle one: a
 * pair in which the idle server was slow too is the machine's stall (a shared, loaded box), left
 * out. The bound: nineteen answers in twenty within 100 ms, none past 250 ms.
 */
export const HEALTHZ_BOUND_MS = 100;
const MACHINE_STALL_MS = 25;

export async function timedHealthz(base: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/healthz`);
  const body = await res.text();
  const ms = performance.now() - started;
  assertContract({ method: 'GET', url: '/healthz', status: res.status, headers: Object.fromEntries(res.headers), body });
  return ms;
}

/** Samples until `done()`; each asked while the work runs is counted, even when it ends before the answer comes. */
export async function sampleWhile(busy: string, idle: string, done: () => boolean): Promise<{ samples: number[]; stalls: number }> {
  const samples: number[] = [];
  let stalls = 0;
  while (!done()) {
    const [ms, reference] = await Promise.all([timedHealthz(busy), timedHealthz(idle)]);
    if (reference > MACHINE_STALL_MS) stalls++;
    else samples.push(ms);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { samples: samples.sort((a, b) => a - b), stalls };
}

export function describeSamples({ samples, stalls }: { samples: number[]; stalls: number }): string {
  return `${samples.length} samples while it ran; median ${samples[samples.length >> 1]?.toFixed(1)} ms, max ${samples.at(-1)?.toFixed(1)} ms; ${stalls} left out`;
}

/** A slice too long would show in every sample, one descheduled process in one. */
export function expectWithinBound({ samples }: { samples: number[] }, summary: string): void {
  expect(samples[Math.floor(samples.length * 0.95)] ?? 0, summary).toBeLessThan(HEALTHZ_BOUND_MS);
  expect(samples.at(-1) ?? 0, summary).toBeLessThan(2.5 * HEALTHZ_BOUND_MS);
  expect(samples.length, summary).toBeGreaterThanOrEqual(10);
}
