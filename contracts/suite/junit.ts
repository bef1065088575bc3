import type { SuiteSummary } from './runner.js';

/**
 * The suite's results as JUnit XML, the format every CI system reads: one test case per
 * check, its classname the check's area, so that a dashboard groups auth, builds, rate limits….
 */
export function suiteJunit(summary: SuiteSummary, startedAt: string): string {
  const cases = summary.results.map((r) => {
    const head = `    <testcase classname="contracts.${escapeXml(r.area)}" name="${escapeXml(r.title)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
    if (r.status === 'passed') return `${head}/>`;
    if (r.status === 'skipped') return `${head}>\n      <skipped message="${escapeXml(r.message ?? '')}"/>\n    </testcase>`;
    const message = r.message ?? 'failed';
    return `${head}>\n      <failure message="${escapeXml(message.split('\n')[0] ?? '')}">${escapeXml(message)}</failure>\n    </testcase>`;
  });
  const counts = `tests="${summary.results.length}" failures="${summary.failed}" skipped="${summary.skipped}"`;
  const name = `contract suite, ${summary.level} level, against ${escapeXml(summary.baseUrl)}`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract suite" ${counts}>\n  <testsuite name="${name}" ${counts} timestamp="${startedAt}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}
