import type { Check } from '../check.js';
import type { ContractLevel } from '../../shared/contract-validator.js';
import { RULES as RESPONSE_RULES } from '../../shared/response-rules.js';
import type { CheckResult } from '../check.js';

/** Where a rule is written down. */
export type RuleSource = 'spec' | 'openapi.yaml' | 'OAuth 2.1' | 'RFC 7636' | 'RFC 8707' | 'RFC 8414' | 'RFC 9728' | 'RFC 9207' | 'RFC 7009' | 'RFC 9110' | 'JSON-RPC 2.0' | 'MCP';

/**
 * One normative statement the suite holds a server to: where it is written, what it says
 * (quoted), the lowest level that checks it, the cases it governs, and the checks that
 * exercise it. A check is named by its id, by a prefix ending in `*` (the checks generated
 * for every operation, `auth.scope.*`), or as `response:<name>` for a rule held on every
 * response of every check (contracts/shared/response-rules.ts).
 */
export interface Rule {
  id: string;
  source: RuleSource;
  /** Section or clause of the source: "Authentication 4", "§4.1.3", "x-inferred idempotency". */
  section: string;
  /** The source's words. */
  quote: string;
  /** documented: the spec states it and a documented run checks it; strict: openapi.yaml or a run that needs strict. */
  level: ContractLevel;
  /** Every case the rule governs, which its checks cover one by one: "every operation", "every response". */
  governs: string;
  checks: string[];
}

export type RuleStatus = 'exercised' | 'failed' | 'skipped' | 'not at this level' | 'no check';

export interface RuleCoverage {
  id: string;
  source: RuleSource;
  section: string;
  level: ContractLevel;
  status: RuleStatus;
  /** The checks of this run that exercise it, by outcome. */
  passed: number;
  failed: number;
  skipped: number;
  reason?: string;
}

const RESPONSE_PREFIX = 'response:';

/** Whether a check reference of a rule names this check. */
export function refersTo(reference: string, checkId: string): boolean {
  return reference.endsWith('*') ? checkId.startsWith(reference.slice(0, -1)) : reference === checkId;
}

/** The checks of a list that a rule names (response rules aside). */
export function checksOf(rule: Rule, checks: readonly Pick<Check, 'id' | 'level'>[]): Pick<Check, 'id' | 'level'>[] {
  return checks.filter((c) => rule.checks.some((ref) => !ref.startsWith(RESPONSE_PREFIX) && refersTo(ref, c.id)));
}

/** The response rules a rule names that the suite holds every response to. */
function responseRulesOf(rule: Rule): string[] {
  return rule.checks.filter((ref) => ref.startsWith(RESPONSE_PREFIX) && ref.slice(RESPONSE_PREFIX.length) in RESPONSE_RULES);
}

/**
 * The rules with no check at their level among `checks` (the strict list for strict rules;
 * the documented checks for documented ones): a rule that lost its last check is listed here.
 * References that name nothing are listed too, so that a renamed check cannot hide.
 */
export function uncoveredRules(rules: readonly Rule[], checks: readonly Pick<Check, 'id' | 'level'>[]): Array<{ rule: string; problem: string }> {
  const problems: Array<{ rule: string; problem: string }> = [];
  for (const rule of rules) {
    const atLevel = checks.filter((c) => rule.level === 'strict' || c.level === 'documented');
    if (checksOf(rule, atLevel).length === 0 && responseRulesOf(rule).length === 0) problems.push({ rule: rule.id, problem: `no ${rule.level} check exercises it` });
    for (const ref of rule.checks) {
      const named = ref.startsWith(RESPONSE_PREFIX) ? ref.slice(RESPONSE_PREFIX.length) in RESPONSE_RULES : checks.some((c) => refersTo(ref, c.id));
      if (!named) problems.push({ rule: rule.id, problem: `names ${ref}, which is no check of the suite` });
    }
  }
  return problems;
}

/**
 * What a run did for each rule: exercised (a check of it passed; for a rule held on every
 * response, the run's checks passed), failed, skipped (with why), not at this level (a
 * strict rule in a documented run) or no check (a defect of the catalogue).
 */
export function ruleCoverage(rules: readonly Rule[], level: ContractLevel, checks: readonly Check[], results: readonly CheckResult[]): RuleCoverage[] {
  const resultOf = new Map(results.map((r) => [r.id, r]));
  const anyPassed = results.some((r) => r.status === 'passed');
  const anyFailedOn = (rule: string) => results.some((r) => r.status === 'failed' && (r.message ?? '').startsWith(rule));
  return rules.map((rule) => {
    const entry = { id: rule.id, source: rule.source, section: rule.section, level: rule.level, passed: 0, failed: 0, skipped: 0 };
    if (rule.level === 'strict' && level === 'documented') return { ...entry, status: 'not at this level' as const };
    const outcomes = checksOf(rule, checks).map((c) => resultOf.get(c.id)?.status ?? 'skipped');
    const responses = responseRulesOf(rule);
    const counted = {
      ...entry,
      passed: outcomes.filter((o) => o === 'passed').length,
      failed: outcomes.filter((o) => o === 'failed').length + (responses.some((r) => anyFailedOn(RESPONSE_RULES[r as keyof typeof RESPONSE_RULES])) ? 1 : 0),
      skipped: outcomes.filter((o) => o === 'skipped').length,
    };
    if (counted.failed > 0) return { ...counted, status: 'failed' as const };
    if (counted.passed > 0 || (responses.length > 0 && anyPassed)) return { ...counted, status: 'exercised' as const };
    if (outcomes.length === 0 && responses.length === 0) return { ...counted, status: 'no check' as const, reason: 'no check of this run exercises it' };
    const reasons = [...new Set(checksOf(rule, checks).map((c) => resultOf.get(c.id)?.message ?? 'not run'))];
    return { ...counted, status: 'skipped' as const, reason: reasons.slice(0, 3).join('; ') };
  });
}
