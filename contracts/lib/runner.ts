import type { Check } from './check.js';
import { allChecks } from './checks/index.js';
import { ROLE_DESCRIPTION, ROLE_ENV, type SuiteConfig } from './config.js';
import { coverageOf, type OperationCoverage } from './coverage.js';
import { exerciseReport, type ExerciseReport } from './exercise-report.js';
import { CONTRACT_FILES } from './openapi-model.js';
import { SkipSignal } from './outcomes.js';
import type { FetchLike } from './server-time.js';
import { openSession, type Session } from './session.js';

export interface CheckResult {
  id: string;
  title: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped, or what failed (starting with the broken rule). */
  message?: string;
  durationMs: number;
}

export interface SuiteSummary {
  baseUrl: string;
  level: SuiteConfig['level'];
  simulator: boolean;
  passed: number;
  failed: number;
  skipped: number;
  unverified: number;
  requests: number;
  tokensSpent: number;
  results: CheckResult[];
  coverage: OperationCoverage[];
  /** What the run exercised of the contract: operations, statuses, parameters, error codes. */
  exercised: ExerciseReport;
}

/**
 * One run of the suite: the session and its checks. The vitest adapter turns each check into
 * a test; `runContractSuite` runs them directly (the suite's own tests use it).
 */
export class SuiteRun {
  readonly results: CheckResult[] = [];

  private constructor(
    readonly session: Session,
    readonly checks: Check[],
  ) {}

  static async open(config: SuiteConfig, fetchImpl: FetchLike = fetch): Promise<SuiteRun> {
    const session = await openSession(config, fetchImpl);
    return new SuiteRun(session, allChecks(session.operations, config.level));
  }

  /** Why a check cannot run in this configuration, known before it starts; undefined if it can. */
  staticSkip(check: Check): string | undefined {
    const { config, control, keys } = this.session;
    const off = { spend: config.spend, exhaust: config.exhaust, wait: config.wait };
    for (const group of check.groups ?? []) if (!off[group]) return `the checks that ${GROUP_VERB[group]} are switched off (--no-${group})`;
    for (const role of check.roles ?? []) if (!keys[role]) return `needs ${ROLE_DESCRIPTION[role]} (${ROLE_ENV[role]})`;
    if (check.simulator && !control) return `needs the simulator's control API: it ${check.simulator}`;
    if (check.buys && !config.allowPurchases && !control) return 'buys tokens, which costs real money on a real service: pass --allow-purchases (CONTRACT_ALLOW_PURCHASES=1) to run it';
    return undefined;
  }

  async run(check: Check): Promise<CheckResult> {
    const started = Date.now();
    const record = (status: CheckResult['status'], message?: string): CheckResult => {
      const result = { id: check.id, title: check.title, status, message, durationMs: Date.now() - started };
      this.results.push(result);
      return result;
    };
    const { session } = this;
    const reason = this.staticSkip(check) ?? this.budgetSkip(check);
    if (reason) return record('skipped', reason);
    try {
      await check.run(session);
      return record('passed');
    } catch (error) {
      if (error instanceof SkipSignal) return record('skipped', error.reason);
      return record('failed', error instanceof Error ? error.message : String(error));
    }
  }

  async finish(): Promise<SuiteSummary> {
    const { session } = this;
    await session.finish();
    const coverage = coverageOf(session.operations, session.level, this.checks, this.results, session.client.seen);
    const count = (status: CheckResult['status']) => this.results.filter((r) => r.status === status).length;
    return {
      baseUrl: session.config.baseUrl,
      level: session.level,
      simulator: session.control !== null,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      unverified: coverage.filter((c) => c.status === 'unverified').length,
      requests: session.client.requests,
      tokensSpent: session.tokensSpent,
      results: this.results,
      coverage,
      exercised: exerciseReport(session.operations, session.client.exercised, CONTRACT_FILES.service),
    };
  }

  private budgetSkip(check: Check): string | undefined {
    const { session } = this;
    if (Date.now() > session.budgets.deadline) return 'the time budget is spent (--time-budget)';
    if (check.requests > session.client.remainingBudget) return `needs about ${check.requests} requests; ${session.client.remainingBudget} are left of the request budget (--request-budget)`;
    // Tokens are reserved by the check itself when it spends (Session.spend), which skips it if the budget is short.
    return undefined;
  }
}

const GROUP_VERB = { spend: 'spend tokens', exhaust: 'exhaust a rate limit', wait: 'wait for a build' } as const;

/** Runs every check of the configured level in order, and summarises. */
export async function runContractSuite(config: SuiteConfig, fetchImpl: FetchLike = fetch): Promise<SuiteSummary> {
  const run = await SuiteRun.open(config, fetchImpl);
  for (const check of run.checks) await run.run(check);
  return run.finish();
}
