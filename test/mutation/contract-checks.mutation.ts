/**
 * The contract suite as the test of a mutated simulator: one test per area of the strict level's
 * checks (auth, builds, tokens, …: contracts/suite/areas.ts), each against a fresh in-process
 * simulator of its own, its checks in the suite's order. Every check passes alone too, so an
 * area passes or fails by what its own checks see. Stryker's per-test coverage then runs, for
 * each mutant, only the areas whose checks reach the mutated code; an area, not a check, per
 * test, because opening a session costs more than most checks (a survivor reached by every
 * area costs one run of the suite, not 500 sessions). The suite stays a black-box client: it talks HTTP and MCP to the
 * simulator through an in-process fetch, as test/contract-suite.test.ts runs it.
 */
import { describe, expect, it } from 'vitest';
import { areaOf } from '../../contracts/suite/areas.js';
import { allChecks } from '../../contracts/suite/checks/index.js';
import { readOperations } from '../../contracts/shared/openapi-model.js';
import { SuiteRun } from '../../contracts/suite/runner.js';
import { config } from '../violations/suite-run.js';
import { simulatorUnderTest } from '../violations/violated-simulator.js';

/** The checks of the strict level by area, in the suite's order. */
const areas = new Map<string, string[]>();
for (const { id } of allChecks(readOperations(), 'strict')) areas.set(areaOf(id), [...(areas.get(areaOf(id)) ?? []), id]);

/** Runs the given checks in the suite's order against a fresh simulator; '' when none failed. */
export async function runChecks(only: readonly string[], env: Record<string, string> = {}): Promise<string> {
  const target = simulatorUnderTest();
  const run = await SuiteRun.open(config(env), target.fetch);
  const wanted = new Set(only);
  for (const check of run.checks) if (wanted.has(check.id)) await run.run(check);
  // The session's own end (the clock handed back), without the run's summary: only the outcomes count here.
  await run.session.finish();
  const ran = run.results.filter((r) => wanted.has(r.id));
  expect(ran.map((r) => r.id).sort()).toEqual([...wanted].sort());
  return run.results
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.title}\n${r.message}`)
    .join('\n\n');
}

describe('the contract suite, one area at a time', () => {
  it.each([...areas.keys()])('%s', async (area) => {
    expect(await runChecks(areas.get(area)!)).toBe('');
  });
});
