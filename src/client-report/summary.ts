import type { ClientReportJson } from './client-report.js';

/**
 * The report in words, for a terminal or a failed test: each rule broken with its count,
 * its first example and the advice. Empty findings give a one-line all-clear.
 */
export function describeClientReport(report: ClientReportJson, name?: string): string {
  const who = name ? `${name} (${report.accountId})` : report.accountId;
  if (report.findings.length === 0) return `Client report of account ${who}: no rule broken.`;
  const rules = report.findings.length === 1 ? '1 rule' : `${report.findings.length} rules`;
  const lines = [`Client report of account ${who}: the client broke ${rules} of the service.`];
  for (const finding of report.findings) {
    lines.push(`- ${finding.rule} ×${finding.count}: ${finding.title} (${finding.firstAt} to ${finding.lastAt})`);
    const example = finding.examples[0];
    if (example) lines.push(`    e.g. ${example.method} ${example.path} at ${example.at} over ${example.via}: ${example.problem}`);
    lines.push(`    threshold: ${finding.threshold}`, `    advice: ${finding.advice}`);
  }
  return lines.join('\n');
}

/** Throws an Error naming each finding (rules in `ignore` left out), or returns when there is none. */
export function assertCleanClient(report: ClientReportJson, ignore: readonly string[] = []): void {
  const findings = report.findings.filter((f) => !ignore.includes(f.rule));
  if (findings.length === 0) return;
  const error = new Error(describeClientReport({ ...report, findings }));
  error.name = 'ClientRulesBroken';
  throw error;
}
