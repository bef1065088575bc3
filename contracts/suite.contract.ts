/**
 * The contract suite as vitest tests: one test per check, named for the rule it checks.
 * Run it through `npm run contracts -- --base-url <url>` (contracts/run.ts), or directly with
 * `CONTRACT_BASE_URL=<url> npx vitest run -c contracts/vitest.config.ts`.
 * Black-box: it imports nothing from src/, only reads openapi.yaml and talks HTTP.
 */
import { afterAll, describe, it } from 'vitest';
import { configFromEnv, formatReport, SuiteRun, writeSummary } from './suite/index.js';

const config = configFromEnv(process.env);
const run = await SuiteRun.open(config);

describe(`contract suite, ${config.level} level, against ${config.baseUrl}`, () => {
  for (const step of [...run.results]) {
    // Setting up on the simulator: a control API that broke its contract fails here, named for the rule.
    it(step.title, () => {
      if (step.status === 'failed') throw contractFailure(step.message ?? step.title);
    });
  }
  for (const check of run.checks) {
    const reason = run.staticSkip(check);
    if (reason) {
      void run.run(check); // recorded as skipped, with its reason
      it.skip(`${check.title} — skipped: ${reason}`, () => {});
      continue;
    }
    it(check.title, async (context) => {
      const result = await run.run(check);
      if (result.status === 'skipped') {
        await context.annotate(`skipped: ${result.message}`, 'skipped');
        context.skip(`skipped: ${result.message}`);
      }
      if (result.status === 'failed') throw contractFailure(result.message ?? check.title);
    });
  }
});

afterAll(async () => {
  const recorded = run.results.length;
  const summary = await run.finish();
  writeSummary(summary, config.reportDir);
  // The runner prints the report itself; run directly, the suite prints it here.
  if (!process.env.CONTRACT_RUNNER) console.log(`${formatReport(summary, config.listUnverified ? { full: true } : {})}\n`);
  // Handing the simulator's clock back is a step of its own: its failure fails the run.
  const teardown = summary.results.slice(recorded).find((r) => r.status === 'failed');
  if (teardown) throw contractFailure(teardown.message ?? teardown.title);
});

/** A failure that shows the rule and what was seen: the suite's code frame would only distract. */
function contractFailure(message: string): Error {
  const failure = new Error(message);
  failure.stack = `ContractFailure: ${message}`;
  return failure;
}
