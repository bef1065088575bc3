import type { CheckResult } from '../../contracts/lib/check.js';
import { SuiteRun } from '../../contracts/lib/runner.js';
import { config } from '../violations/suite-run.js';
import { simulatorUnderTest } from '../violations/violated-simulator.js';
import type { Violation } from '../violations/violation.js';

/**
 * A strict run of the suite's checks whose ids start with one of `prefixes`, in the suite's
 * order, against a simulator (broken by a violation when one is given): what a check does
 * is judged without the whole suite around it.
 */
export async function runFocused(prefixes: readonly string[], violation?: Violation, env: Record<string, string> = {}): Promise<CheckResult[]> {
  const run = await SuiteRun.open(config(env), simulatorUnderTest(violation).fetch);
  const results: CheckResult[] = [];
  for (const check of run.checks) if (prefixes.some((p) => check.id.startsWith(p))) results.push(await run.run(check));
  await run.finish();
  return results;
}

/** The failures of a focused run, each with its message. */
export function failedOf(results: readonly CheckResult[]): string {
  return results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.message}`).join('\n\n');
}
