import { modelPhaseCheck } from './model/check.js';
import { areaOf } from './areas.js';
import type { Check, CheckResult } from './check.js';
import { mcpConformanceChecks } from './checks/mcp-conformance.js';
import { allChecks } from './checks/index.js';
import { ROLE_DESCRIPTION, ROLE_ENV, type SuiteConfig } from './config.js';
import { coverageOf, type OperationCoverage } from './coverage.js';
import { exerciseReport, type ExerciseReport } from '../shared/exercise-report.js';
import { CONTRACT_FILES } from '../shared/openapi-model.js';
import { RULE_CATALOGUE, ruleCoverage, type RuleCoverage } from './rules/index.js';
import { ContractFailure, SkipSignal } from '../shared/outcomes.js';
import { CONTROL_RULE, type FetchLike } from '../shared/server-time.js';
import { openSession, type Session } from './session.js';

export type { CheckResult } from './check.js';


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
  /** Every rule of the catalogue (contracts/suite/rules) and what the run did for it. */
  rules: RuleCoverage[];
  /** What the run exercised of the contract: operations, statuses, parameters, error codes. */
  exercised: ExerciseReport;
  /** What the run left open, listed in full (the console folds it into one line at the documented level). */
  gaps: RunGaps;
}

export interface RunGaps {
  unverified: Array<{ operationId: string; method: string; path: string; reason: string }>;
  neverCalled: Array<{ operationId: string; method: string; path: string }>;
}

/** The steps on the simulator's control API outside any check: setting the run up, handing the clock back. */
const SETUP_STEP = { id: 'setup.simulator', title: CONTROL_RULE } as const;
const TEARDOWN_STEP = { id: 'setup.simulator-clock-resumed', title: CONTROL_RULE } as const;

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

  /**
   * Opens the session. On the simulator, setting up (the probe, the accounts, the clock) is
   * recorded as a step of its own, failed when the control API broke its contract: it is
   * then the first of `results`.
   */
  static async open(config: SuiteConfig, fetchImpl: FetchLike = fetch): Promise<SuiteRun> {
    const session = await openSession(config, fetchImpl);
    // The model-based phase comes last (it works on accounts of its own where the simulator gives them); --no-model leaves it out.
    // The official MCP conformance tool runs only when given (it takes Node 22 and about a minute).
    const conformance = config.mcpConformance && config.level === 'strict' ? mcpConformanceChecks(config.mcpConformance) : [];
    const run = new SuiteRun(session, [...allChecks(session.operations, config.level), ...conformance, ...(config.model.enabled ? [modelPhaseCheck()] : [])]);
    if (session.control) {
      const broken = [session.setupFailure, ...session.control.takeViolations()].filter((m): m is string => m !== undefined);
      run.record(SETUP_STEP, broken.length ? 'failed' : 'passed', 0, broken.join('\n') || undefined);
    }
    return run;
  }

  /** Why a check cannot run in this configuration, known before it starts; undefined if it can. */
  staticSkip(check: Check): string | undefined {
    const { config, control, keys } = this.session;
    if (this.session.setupFailure) return 'the run could not set itself up on the simulator (see the failed setup step)';
    const off = { spend: config.spend, exhaust: config.exhaust, wait: config.wait };
    for (const group of check.groups ?? []) if (!off[group]) return `the checks that ${GROUP_VERB[group]} are switched off (--no-${group})`;
    for (const role of check.roles ?? []) if (!keys[role]) return `needs ${ROLE_DESCRIPTION[role]} (${ROLE_ENV[role]})`;
    if (check.simulator && !control) return `needs the simulator's control API: it ${check.simulator}`;
    if (check.buys && !config.allowPurchases && !control) return 'buys tokens, which costs real money on a real service: pass --allow-purchases (CONTRACT_ALLOW_PURCHASES=1) to run it';
    return undefined;
  }

  async run(check: Check): Promise<CheckResult> {
    const started = Date.now();
    const record = (status: CheckResult['status'], message?: string) => this.record(check, status, Date.now() - started, message);
    const { session } = this;
    const reason = this.staticSkip(check) ?? this.budgetSkip(check);
    if (reason) return record('skipped', reason);
    let failure: string | undefined;
    let skip: string | undefined;
    try {
      await check.run(session);
    } catch (error) {
      if (error instanceof SkipSignal) skip = error.reason;
      else failure = failureMessage(check, error);
    }
    // A control call the check made may have broken its contract without stopping the check.
    const control = session.control?.takeViolations() ?? [];
    if (failure !== undefined || control.length) return record('failed', [failure, ...control].filter((m) => m !== undefined).join('\n'));
    return skip !== undefined ? record('skipped', skip) : record('passed');
  }

  async finish(): Promise<SuiteSummary> {
    const { session } = this;
    const started = Date.now();
    let failure: string | undefined;
    try {
      await session.finish();
    } catch (error) {
      if (!(error instanceof ContractFailure)) throw error;
      failure = error.message;
    }
    const broken = [failure, ...(session.control?.takeViolations() ?? [])].filter((m): m is string => m !== undefined);
    if (broken.length) this.record(TEARDOWN_STEP, 'failed', Date.now() - started, broken.join('\n'));
    const coverage = coverageOf(session.operations, session.level, this.checks, this.results, session.client.seen);
    const count = (status: CheckResult['status']) => this.results.filter((r) => r.status === status).length;
    const exercised = exerciseReport(session.operations, session.client.exercised, CONTRACT_FILES.service);
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
      rules: ruleCoverage(RULE_CATALOGUE, session.level, this.checks, this.results),
      exercised,
      gaps: {
        unverified: coverage.filter((c) => c.status === 'unverified').map((c) => ({ operationId: c.operationId, method: c.method, path: c.path, reason: c.reason ?? '' })),
        neverCalled: exercised.operations.filter((o) => o.calls === 0).map((o) => ({ operationId: o.operationId, method: o.method, path: o.path })),
      },
    };
  }

  private record(step: { id: string; title: string }, status: CheckResult['status'], durationMs: number, message?: string): CheckResult {
    const result = { id: step.id, area: areaOf(step.id), title: step.title, status, message, durationMs };
    this.results.push(result);
    return result;
  }

  private budgetSkip(check: Check): string | undefined {
    const { session } = this;
    if (Date.now() > session.budgets.deadline) return 'the time budget is spent (--time-budget)';
    if (check.requests > session.client.remainingBudget) return `needs about ${check.requests} requests; ${session.client.remainingBudget} are left of the request budget (--request-budget)`;
    // Tokens are reserved by the check itself when it spends (Session.spend), which skips it if the budget is short.
    return undefined;
  }
}

/**
 * What a failed check reports: a broken rule's message as it is (it starts with the rule);
 * anything else that stopped the check (an answer it could not read) under the check's own
 * rule, so that every failure names the rule it concerns.
 */
function failureMessage(check: Check, error: unknown): string {
  if (error instanceof ContractFailure) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  return `${check.title}\n    the check could not go on: ${detail}`;
}

const GROUP_VERB = { spend: 'spend tokens', exhaust: 'exhaust a rate limit', wait: 'wait for a build' } as const;

/** Runs every check of the configured level in order, and summarises. */
export async function runContractSuite(config: SuiteConfig, fetchImpl: FetchLike = fetch): Promise<SuiteSummary> {
  const run = await SuiteRun.open(config, fetchImpl);
  for (const check of run.checks) await run.run(check);
  return run.finish();
}
