/**
 * The suite's command, `content-contracts --base-url http://host:port [options]`: parses the
 * flags into the CONTRACT_* environment, runs the checks one by one with a line for each, writes
 * the JUnit, summary and coverage files, prints the report, and exits 0 only when no check failed.
 * No test framework runs: the compiled command starts in the time Node takes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { usageLine } from '../shared/usage-problem.js';
import { configFromEnv, flagsToEnv, USAGE } from './config.js';
import { suiteJunit } from './junit.js';
import { COVERAGE_FILE, formatReport, JUNIT_FILE, SUMMARY_FILE, writeSummary } from './report.js';
import { SuiteRun, type CheckResult } from './runner.js';

export async function runSuiteCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = flagsToEnv(argv);
  } catch (e) {
    process.stderr.write(usageLine(undefined, (e as Error).message));
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  Object.assign(process.env, parsed.env, { CONTRACT_RUNNER: '1' });
  let config;
  try {
    config = configFromEnv(process.env);
  } catch (e) {
    process.stderr.write(usageLine(undefined, (e as Error).message));
    return 2;
  }
  try {
    await fetch(config.baseUrl, { method: 'GET' });
  } catch (e) {
    process.stderr.write(`contracts: cannot reach ${config.baseUrl}: ${(e as Error).cause ?? (e as Error).message}\n`);
    return 2;
  }
  const reportDir = resolve(process.cwd(), config.reportDir);
  const startedAt = new Date().toISOString();
  let run: SuiteRun;
  try {
    run = await SuiteRun.open(config);
  } catch (e) {
    // A server's behaviour never lands here (it is a failed step); a configuration that cannot work does.
    process.stderr.write(`contracts: ${(e as Error).message}\n`);
    return 2;
  }
  // Counted as the summary counts them: the steps that set the simulator up are lines of the report too.
  const steps = run.results.length;
  process.stdout.write(`Contract suite, ${config.level} level, against ${config.baseUrl}: ${run.checks.length + steps} checks${steps ? ` (${steps} of them setting up the simulator)` : ''}\n`);
  for (const step of run.results) printResult(step); // setting up on the simulator
  for (const check of run.checks) printResult(await run.run(check));
  const summary = await run.finish();
  mkdirSync(reportDir, { recursive: true });
  writeSummary(summary, reportDir);
  writeFileSync(join(reportDir, JUNIT_FILE), suiteJunit(summary, startedAt));
  const report = formatReport(summary, config.listUnverified ? { full: true } : {});
  process.stdout.write(`\nJUnit report: ${join(reportDir, JUNIT_FILE)}\nSummary and coverage (JSON): ${join(reportDir, SUMMARY_FILE)}, ${join(reportDir, COVERAGE_FILE)}\n\n${report}\n`);
  return summary.failed > 0 ? 1 : 0;
}

function printResult(result: CheckResult): void {
  const mark = result.status === 'passed' ? '✓' : result.status === 'failed' ? '✗' : '-';
  process.stdout.write(`  ${mark} ${result.title}${result.status === 'skipped' ? ` (skipped: ${result.message})` : ''}\n`);
}
