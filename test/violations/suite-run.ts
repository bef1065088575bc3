/** How the contract suite's own tests run it in-process, and read what it found. */
import { areaOf } from '../../contracts/suite/areas.js';
import type { CheckResult } from '../../contracts/suite/check.js';
import { configFromEnv } from '../../contracts/suite/config.js';
import { SuiteRun, type SuiteSummary } from '../../contracts/suite/runner.js';
import type { FetchLike } from '../../contracts/shared/server-time.js';

const BASE = 'http://simulator.in-process';

/** A strict in-process run; the model-based phase has tests of its own (contract-model.test.ts). */
export function config(env: Record<string, string> = {}) {
  return configFromEnv({ CONTRACT_BASE_URL: BASE, CONTRACT_LEVEL: 'strict', CONTRACT_RUN_ID: 'self-test', CONTRACT_MODEL: '0', ...env });
}

/**
 * The areas whose checks make what another area's checks read: the scope and isolation checks
 * of an existing image, recording or chat need the generation checks to have made one, a
 * share's the deliverables checks, the lists' filters and pages items of several kinds.
 */
const MAKERS: Readonly<Record<string, readonly string[]>> = {
  auth: ['generation'],
  isolation: ['generation', 'deliverables'],
  requests: ['builds', 'targets', 'generation'],
  tokens: ['builds'],
  mcp: ['builds'],
};

/**
 * A run of the checks of some areas of the contract only (the area is a check's JUnit
 * classname), and of those that make what they read (MAKERS), in the suite's order, with its
 * set-up and its summary as in a whole run: what a team runs after changing one part of a
 * server. Which check fails, and what it names, is still the suite's to find among every
 * check of those areas.
 */
export async function runAreas(areas: readonly string[], suiteConfig: ReturnType<typeof config>, fetchImpl: FetchLike): Promise<SuiteSummary> {
  const chosen = new Set(areas.flatMap((area) => [area, ...(MAKERS[area] ?? [])]));
  return (await runChecks((id) => chosen.has(areaOf(id)), suiteConfig, fetchImpl)).summary;
}

/** A run of the checks `chosen` picks by id, in the suite's order, with its set-up and summary as in a whole run. */
export async function runChecks(chosen: (id: string) => boolean, suiteConfig: ReturnType<typeof config>, fetchImpl: FetchLike): Promise<{ results: CheckResult[]; summary: SuiteSummary }> {
  const run = await SuiteRun.open(suiteConfig, fetchImpl);
  const results: CheckResult[] = [];
  for (const check of run.checks) if (chosen(check.id)) results.push(await run.run(check));
  return { results, summary: await run.finish() };
}

export function outcome(summary: SuiteSummary, id: string) {
  return summary.results.find((r) => r.id === id);
}

/** Every failed check, with its message: '' when none failed. */
export function failures(summary: SuiteSummary): string {
  return summary.results
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.title}\n${r.message}`)
    .join('\n\n');
}
