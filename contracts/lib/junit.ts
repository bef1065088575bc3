import type { SuiteSummary } from './runner.js';

/**
 * The suite's JUnit report: one test case per check, failures with their message, skip
 * reasons both as the <skipped> message and as a property (CI views show either).
 */
export function junitOfSuite(summary: SuiteSummary, startedAt: string): string {
  const suiteName = `contract suite, ${summary.level} level, against ${summary.baseUrl}`;
  const cases = summary.results.map((r) => {
    const open = `    <testcase classname="${escapeXml(suiteName)}" name="${escapeXml(r.title)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
    if (r.status === 'passed') return `${open}/>`;
    if (r.status === 'failed') return `${open}>\n      <failure message="${escapeXml(firstLine(r.message))}">${escapeXml(r.message ?? '')}</failure>\n    </testcase>`;
    const reason = escapeXml(r.message ?? '');
    return `${open}>\n      <properties><property name="skipped" value="${reason}"/></properties>\n      <skipped message="${reason}"/>\n    </testcase>`;
  });
  const totals = `tests="${summary.results.length}" failures="${summary.failed}" errors="0" skipped="${summary.skipped}"`;
  const seconds = (summary.results.reduce((t, r) => t + r.durationMs, 0) / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract suite" ${totals} time="${seconds}">`,
    `  <testsuite name="${escapeXml(suiteName)}" ${totals} time="${seconds}" timestamp="${startedAt}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

function escapeXml(text: string): string {
  // Control characters other than tab and newlines are not allowed in XML 1.0 at all.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
