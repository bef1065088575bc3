import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatExerciseReport } from '../shared/exercise-report.js';
import { RULES } from '../shared/response-rules.js';
import { BEHAVIOUR_RULES } from './behaviour.js';
import { CREDENTIAL_RULE, REQUEST_RULE, type InspectionSummary, type ProxyViolation } from './inspector.js';

export const PROXY_FILES = { json: 'contracts-proxy.json', junit: 'contracts-proxy-junit.xml' } as const;

export interface ProxyReport extends InspectionSummary {
  target: string;
  level: string;
  startedAt: string;
  stoppedAt: string;
}

/** Every rule the proxy holds traffic to: each is one JUnit test case, failed by its violations. */
const ALL_RULES = [CREDENTIAL_RULE, REQUEST_RULE, ...Object.values(RULES), ...Object.values(BEHAVIOUR_RULES)];

export function byRule(violations: readonly ProxyViolation[]): Map<string, ProxyViolation[]> {
  const map = new Map<string, ProxyViolation[]>();
  for (const v of violations) map.set(v.rule, [...(map.get(v.rule) ?? []), v]);
  return map;
}

export function proxySummaryLine(report: ProxyReport): string {
  return `contracts proxy: ${report.exchanges} exchanges, ${report.violations.length} violation(s) of ${byRule(report.violations).size} rule(s)`;
}

export function formatProxyReport(report: ProxyReport): string {
  const lines = [
    `Validation proxy, ${report.level} level, in front of ${report.target} (${report.startedAt} to ${report.stoppedAt})`,
    `${report.exchanges} exchanges; ${report.refusedInvalidRequests} invalid request(s) refused by the server as they should be; ${report.unvalidatedBodies} body(ies) too large to validate; ${report.upstreamErrors} upstream error(s)`,
  ];
  if (report.medianDurationMs !== null) lines.push(`median exchange ${report.medianDurationMs} ms through the proxy`);
  const grouped = byRule(report.violations);
  if (grouped.size) {
    lines.push('', `VIOLATIONS (${report.violations.length}):`);
    for (const [rule, list] of grouped) {
      lines.push(`  ✗ ${rule} (${list.length})`);
      for (const v of list.slice(0, 5)) lines.push(`      ${v.method} ${v.url} → ${v.status}${v.operationId ? ` (${v.operationId})` : ''}: ${v.detail.slice(0, 300)}`);
      if (list.length > 5) lines.push(`      … and ${list.length - 5} more`);
    }
  }
  lines.push('', ...formatExerciseReport(report.coverage), '', proxySummaryLine(report));
  return lines.join('\n');
}

export function junitOf(report: ProxyReport): string {
  const grouped = byRule(report.violations);
  const rules = [...new Set([...ALL_RULES, ...grouped.keys()])];
  const cases = rules.map((rule) => {
    const list = grouped.get(rule) ?? [];
    const name = escapeXml(rule);
    if (!list.length) return `    <testcase classname="contract proxy" name="${name}"/>`;
    const detail = list.map((v) => `${v.method} ${v.url} → ${v.status}: ${v.detail}`).join('\n');
    return `    <testcase classname="contract proxy" name="${name}">\n      <failure message="${escapeXml(`${list.length} violation(s)`)}">${escapeXml(detail)}</failure>\n    </testcase>`;
  });
  const failures = rules.filter((r) => grouped.has(r)).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract proxy" tests="${rules.length}" failures="${failures}">\n  <testsuite name="contract proxy in front of ${escapeXml(report.target)}" tests="${rules.length}" failures="${failures}" timestamp="${report.startedAt}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/** Writes the JSON and JUnit reports; answers their paths. */
export function writeProxyReports(report: ProxyReport, dir: string): { json: string; junit: string } {
  mkdirSync(dir, { recursive: true });
  const files = { json: join(dir, PROXY_FILES.json), junit: join(dir, PROXY_FILES.junit) };
  writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(files.junit, junitOf(report));
  return files;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}
