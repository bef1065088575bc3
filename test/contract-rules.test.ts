import { describe, expect, it } from 'vitest';
import { allChecks } from '../contracts/suite/checks/index.js';
import { readOperations } from '../contracts/shared/openapi-model.js';
import { mcpConformanceChecks } from '../contracts/suite/checks/mcp-conformance.js';
import { modelPhaseCheck } from '../contracts/suite/model/check.js';
import { RULE_CATALOGUE, uncoveredRules } from '../contracts/suite/rules/index.js';
import { ruleCoverage } from '../contracts/suite/rules/rule.js';

const operations = readOperations();
// The model-based phase is a check of every default run (the runner appends it after the others).
const strictChecks = [...allChecks(operations, 'strict'), modelPhaseCheck(), ...mcpConformanceChecks('conformance')];

describe('the rule catalogue', () => {
  it('gives every rule an id of its own, its source quoted, a level, what it governs and its checks', () => {
    expect(RULE_CATALOGUE.length).toBeGreaterThanOrEqual(100);
    expect(new Set(RULE_CATALOGUE.map((r) => r.id)).size).toBe(RULE_CATALOGUE.length);
    for (const rule of RULE_CATALOGUE) {
      expect(rule.quote.length, rule.id).toBeGreaterThan(10);
      expect(rule.section, rule.id).not.toBe('');
      expect(rule.governs, rule.id).not.toBe('');
      expect(['documented', 'strict'], rule.id).toContain(rule.level);
      expect(rule.checks.length, rule.id).toBeGreaterThan(0);
    }
    // The spec's rules, openapi.yaml's inferences and the protocols the spec brings in are all there.
    const sources = new Set(RULE_CATALOGUE.map((r) => r.source));
    for (const source of ['spec', 'openapi.yaml', 'OAuth 2.1', 'RFC 7636', 'RFC 8707', 'MCP']) expect(sources).toContain(source);
  });

  it('has no rule without a check of its level, and names no check the suite lacks', () => {
    expect(uncoveredRules(RULE_CATALOGUE, strictChecks)).toEqual([]);
  });

  it('fails a rule that loses its last check, and a reference to a check that is gone', () => {
    const withoutCap = strictChecks.filter((c) => c.id !== 'chat.cap');
    expect(uncoveredRules(RULE_CATALOGUE, withoutCap)).toEqual([
      { rule: 'spec.chat', problem: 'names chat.cap, which is no check of the suite' },
      { rule: 'openapi.chat.cap', problem: 'no strict check exercises it' },
      { rule: 'openapi.chat.cap', problem: 'names chat.cap, which is no check of the suite' },
    ]);
    // A rule the spec states needs a documented check: strict ones do not stand in for it.
    const strictOnly = strictChecks.map((c) => (c.id === 'oauth.code-reuse' ? { ...c, level: 'strict' as const } : c));
    expect(uncoveredRules(RULE_CATALOGUE, strictOnly)).toEqual([{ rule: 'oauth.code-single-use', problem: 'no documented check exercises it' }]);
    // A generated family counts case by case: with none of the auth.scope-existing checks, nothing else names them.
    const noFamily = strictChecks.filter((c) => !c.id.startsWith('auth.scope-existing.'));
    expect(uncoveredRules(RULE_CATALOGUE, noFamily).map((p) => p.problem)).toContain('names auth.scope-existing.*, which is no check of the suite');
  });

  it('reports a rule whose checks failed, were skipped, or are not at the level of the run', () => {
    const rules = RULE_CATALOGUE.filter((r) => ['openapi.chat.cap', 'spec.limits.headers', 'spec.auth.403'].includes(r.id));
    const results = [
      { id: 'chat.cap', area: 'generation', title: '', status: 'failed' as const, message: 'x', durationMs: 0 },
      { id: 'limits.headers', area: 'rate-limits', title: '', status: 'passed' as const, durationMs: 0 },
    ];
    const strict = ruleCoverage(rules, 'strict', strictChecks, results);
    expect(Object.fromEntries(strict.map((r) => [r.id, r.status]))).toEqual({ 'openapi.chat.cap': 'failed', 'spec.limits.headers': 'exercised', 'spec.auth.403': 'skipped' });
    const documented = ruleCoverage(rules, 'documented', allChecks(operations, 'documented'), results);
    expect(documented.find((r) => r.id === 'openapi.chat.cap')?.status).toBe('not at this level');
  });
});
