import type { Check, CheckResult } from './check.js';
import type { ContractLevel } from '../shared/contract-validator.js';
import type { OperationInfo } from '../shared/openapi-model.js';

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  /** verified: a specific scenario passed; failed: a check of it failed; unverified: see reason. */
  status: 'verified' | 'failed' | 'unverified';
  reason?: string;
  /** Statuses the run got from it. */
  statusesSeen: number[];
}

/** Every operation of openapi.yaml, and whether the run verified it, and if not why. */
export function coverageOf(
  operations: readonly OperationInfo[],
  level: ContractLevel,
  checks: readonly Check[],
  results: readonly CheckResult[],
  seen: ReadonlyMap<string, ReadonlySet<number>>,
): OperationCoverage[] {
  const resultOf = new Map(results.map((r) => [r.id, r]));
  return operations.map((op) => {
    const statusesSeen = [...(seen.get(op.id) ?? [])].sort((a, b) => a - b);
    const entry = { operationId: op.id, method: op.method, path: op.path, statusesSeen };
    const covering = checks.filter((c) => c.covers?.includes(op.id));
    const outcomes = covering.map((c) => ({ check: c, result: resultOf.get(c.id) }));
    if (outcomes.some((o) => o.result?.status === 'failed')) return { ...entry, status: 'failed' as const };
    if (level === 'documented' && op.inferred) {
      return { ...entry, status: 'unverified' as const, reason: 'inferred by openapi.yaml (x-inferred: the spec does not show it): not called at the documented level' };
    }
    const specific = outcomes.filter((o) => !o.check.generic);
    if (specific.some((o) => o.result?.status === 'passed')) return { ...entry, status: 'verified' as const };
    if (specific.length === 0) {
      const exercised = statusesSeen.some((s) => s >= 200 && s < 300) ? ', and one plain successful call' : '';
      return {
        ...entry,
        status: 'unverified' as const,
        reason: `no specific scenario in the suite: only the generic checks cover it (401/403 matrix, rate-limit headers, response validation${exercised})`,
      };
    }
    const reasons = [...new Set(specific.map((o) => o.result?.message ?? 'not run'))];
    return { ...entry, status: 'unverified' as const, reason: `its scenarios were skipped: ${reasons.join('; ')}` };
  });
}
