import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AcceptedDifference } from './accept.js';
import type { ReplayResult } from './replay.js';
import { DRIFT_RULES, type Drift, type DriftRule } from './rules.js';

export const DRIFT_FILES = { json: 'contracts-drift.json', junit: 'contracts-drift-junit.xml' } as const;

export interface DriftReport extends ReplayResult {
  recording: string;
  startedAt: string;
  finishedAt: string;
  /** Differences an accept file lists: reported, not failing. */
  accepted: Drift[];
  /** Accept-file entries that matched no difference: the behaviour they accepted is gone, or changed. */
  staleAccepts: AcceptedDifference[];
}

export function driftReport(result: ReplayResult, recording: string, startedAt: string, stale: AcceptedDifference[]): DriftReport {
  return {
    ...result,
    drifts: result.drifts.filter((d) => d.accepted === undefined),
    accepted: result.drifts.filter((d) => d.accepted !== undefined),
    staleAccepts: stale,
    recording,
    startedAt,
    finishedAt: new Date().toISOString(),
  };
}

export function driftSummaryLine(report: DriftReport): string {
  const rules = new Set(report.drifts.map((d) => d.rule)).size;
  return `contracts drift: ${report.replayed} of ${report.entries} recorded calls replayed${report.interrupted ? ` (stopped early: ${report.interrupted})` : ''}, ${report.drifts.length} difference(s) in ${rules} rule(s), ${report.accepted.length} accepted`;
}

/** One line per difference: the call, the rule and field, both values, the explanation. */
export function formatDrift(d: Drift): string {
  const where = `#${d.call} ${d.method} ${d.url}${d.operationId ? ` (${d.operationId})` : ''}`;
  return `${where}: [${d.rule}${d.field ? ` ${d.field}` : ''}] recorded ${JSON.stringify(d.recorded)}, replayed ${JSON.stringify(d.replayed)}: ${d.explanation}`;
}

export function formatDriftReport(report: DriftReport): string {
  const lines = [`Drift: the recording ${report.recording} replayed against ${report.target}${report.pipelineSpeed ? ` (the simulator, pipeline speed ${report.pipelineSpeed}, a fresh account on its own clock)` : ''}`];
  const skipped = Object.entries(report.skipped);
  if (skipped.length) lines.push(`not replayed: ${skipped.map(([why, n]) => `${n} (${why})`).join(', ')}`);
  if (report.followUps) lines.push(`${report.followUps} extra poll(s) to follow builds to the end the recording saw`);
  const byRule = group(report.drifts);
  if (byRule.size) {
    lines.push('', `DRIFT (${report.drifts.length}):`);
    for (const [rule, list] of byRule) {
      lines.push(`  ✗ ${rule}: ${DRIFT_RULES[rule]} (${list.length})`);
      for (const d of list.slice(0, 10)) lines.push(`      ${formatDrift(d).slice(0, 400)}`);
      if (list.length > 10) lines.push(`      … and ${list.length - 10} more (${DRIFT_FILES.json} has them all)`);
    }
  }
  if (report.accepted.length) lines.push('', `ACCEPTED (${report.accepted.length}), by the accept file:`, ...report.accepted.slice(0, 10).map((d) => `  ~ ${formatDrift(d).slice(0, 300)} (accepted: ${d.accepted})`));
  if (report.staleAccepts.length) lines.push('', `STALE ACCEPTS (${report.staleAccepts.length}): listed in the accept file, not seen in this replay:`, ...report.staleAccepts.map((a) => `  ? ${JSON.stringify(a)}`));
  lines.push('', driftSummaryLine(report));
  return lines.join('\n');
}

/** JUnit as the contract suite writes it: one test case per rule, failed by its differences. */
export function driftJunit(report: DriftReport): string {
  const byRule = group(report.drifts);
  const rules = Object.keys(DRIFT_RULES) as DriftRule[];
  const cases = rules.map((rule) => {
    const name = escapeXml(`${rule}: ${DRIFT_RULES[rule]}`);
    const list = byRule.get(rule) ?? [];
    if (!list.length) return `    <testcase classname="contracts.drift" name="${name}"/>`;
    return `    <testcase classname="contracts.drift" name="${name}">\n      <failure message="${escapeXml(`${list.length} difference(s)`)}">${escapeXml(list.map(formatDrift).join('\n'))}</failure>\n    </testcase>`;
  });
  const failures = rules.filter((r) => byRule.has(r)).length;
  const counts = `tests="${rules.length}" failures="${failures}" skipped="0"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract drift" ${counts}>\n  <testsuite name="${escapeXml(`drift of ${report.target} from ${report.recording}`)}" ${counts} timestamp="${report.startedAt}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

export function writeDriftReports(report: DriftReport, dir: string): { json: string; junit: string } {
  mkdirSync(dir, { recursive: true });
  const files = { json: join(dir, DRIFT_FILES.json), junit: join(dir, DRIFT_FILES.junit) };
  writeFileSync(files.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(files.junit, driftJunit(report));
  return files;
}

function group(drifts: readonly Drift[]): Map<DriftRule, Drift[]> {
  const map = new Map<DriftRule, Drift[]>();
  for (const d of drifts) map.set(d.rule, [...(map.get(d.rule) ?? []), d]);
  return map;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}
