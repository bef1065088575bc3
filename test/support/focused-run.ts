import type { CheckResult } from '../../contracts/suite/check.js';
import { config, runChecks } from '../violations/suite-run.js';
import { simulatorUnderTest } from '../violations/violated-simulator.js';
import type { Violation } from '../violations/violation.js';

/**
 * A strict run of the suite's checks whose ids start with one of `prefixes`, in the suite's
 * order, against a simulator (broken by a violation when one is given): what a check does
 * is judged without the whole suite around it.
 */
export async function runFocused(prefixes: readonly string[], violation?: Violation, env: Record<string, string> = {}): Promise<CheckResult[]> {
  return (await runChecks((id) => prefixes.some((p) => id.startsWith(p)), config(env), simulatorUnderTest(violation).fetch)).results;
}

/** The failures of a focused run, each with its message. */
export function failedOf(results: readonly CheckResult[]): string {
  return results.filter((r) => r.status === 'failed').map((r) => `${r.id}: ${r.message}`).join('\n\n');
}
