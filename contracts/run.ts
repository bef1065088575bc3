#!/usr/bin/env node
/**
 * `content-contracts --base-url http://host:port [options]` (in the repository: `npm run
 * contracts -- …`): checks a server against the contract. Runs every check of the level in
 * order, printing one line per check, writes the JUnit, summary and coverage reports, prints
 * the report with the summary line last, and exits 0 only when no check failed. Plain Node:
 * no test runner at run time, so the compiled bin starts in well under a second.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runDiffCommand } from './diff/command.js';
import { runProxyCommand } from './proxy/command.js';
import { configFromEnv, flagsToEnv, USAGE } from './lib/config.js';
import { junitOfSuite } from './lib/junit.js';
import { COVERAGE_FILE, formatReport, JUNIT_FILE, SUMMARY_FILE, writeSummary } from './lib/report.js';
import { SuiteRun, type CheckResult } from './lib/runner.js';

const MARK: Record<CheckResult['status'], string> = { passed: '✓', failed: '✗', skipped: '↓' };

async function main(): Promise<number> {
  if (process.argv[2] === 'diff') return runDiffCommand(process.argv.slice(3));
  if (process.argv[2] === 'proxy') return runProxyCommand(process.argv.slice(3));
  let parsed;
  try {
    parsed = flagsToEnv(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`contracts: ${(e as Error).message}\n\n${USAGE}\n`);
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
    process.stderr.write(`contracts: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    await fetch(config.baseUrl, { method: 'GET' });
  } catch (e) {
    process.stderr.write(`contracts: cannot reach ${config.baseUrl}: ${(e as Error).cause ?? (e as Error).message}\n`);
    return 2;
  }
  // Reports go under the caller's directory, never inside an installed package.
  const reportDir = resolve(process.cwd(), config.reportDir);
  rmSync(join(reportDir, SUMMARY_FILE), { force: true });
  const startedAt = new Date().toISOString();

  const run = await SuiteRun.open(config);
  process.stdout.write(`contract suite, ${config.level} level, against ${config.baseUrl}\n`);
  for (const check of run.checks) {
    const result = await run.run(check);
    const why = result.status === 'skipped' ? ` — skipped: ${result.message}` : '';
    process.stdout.write(` ${MARK[result.status]} ${result.title}${why} ${result.durationMs}ms\n`);
  }
  const summary = await run.finish();
  writeSummary(summary, reportDir);
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, JUNIT_FILE), junitOfSuite(summary, startedAt));
  process.stdout.write(`\nJUnit report: ${join(reportDir, JUNIT_FILE)}\nCoverage (JSON): ${join(reportDir, COVERAGE_FILE)}\n\n${formatReport(summary)}\n`);
  return summary.failed > 0 ? 1 : 0;
}

process.exitCode = await main();
