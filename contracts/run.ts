/**
 * `npm run contracts -- --base-url http://host:port [options]`: checks a server against the
 * contract. Parses the flags into the CONTRACT_* environment, runs the suite with vitest
 * (console and JUnit reporters), prints the report and the summary line, and exits 0 only
 * when no check failed.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { runDiffCommand } from './diff/command.js';
import { runProxyCommand } from './proxy/command.js';
import { configFromEnv, flagsToEnv, USAGE } from './lib/config.js';
import { COVERAGE_FILE, formatReport, JUNIT_FILE, readSummary, SUMMARY_FILE } from './lib/report.js';

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
  const root = fileURLToPath(new URL('..', import.meta.url));
  const reportDir = resolve(root, config.reportDir);
  process.env.CONTRACT_REPORT_DIR = reportDir;
  rmSync(join(reportDir, SUMMARY_FILE), { force: true });

  const vitest = await startVitest('test', [], {
    config: join(root, 'contracts/vitest.config.ts'),
    root,
    run: true,
    watch: false,
    reporters: ['default', 'junit'],
    outputFile: { junit: join(reportDir, JUNIT_FILE) },
  });
  const crashed = vitest.state.getUnhandledErrors().length > 0 || vitest.state.getFiles().some((f) => f.result?.state === 'fail' && (f.result.errors?.length ?? 0) > 0);
  await vitest.close();

  const summary = readSummary(reportDir);
  if (!summary) {
    process.stderr.write('contracts: the suite did not finish (see the errors above)\n');
    return 1;
  }
  process.stdout.write(`\n${formatReport(summary)}\nJUnit report: ${join(reportDir, JUNIT_FILE)}\nCoverage (JSON): ${join(reportDir, COVERAGE_FILE)}\n`);
  return summary.failed > 0 || crashed ? 1 : 0;
}

process.exitCode = await main();
