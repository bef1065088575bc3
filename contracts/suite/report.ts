import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatExerciseReport } from '../shared/exercise-report.js';
import type { SuiteSummary } from './runner.js';

export const SUMMARY_FILE = 'contracts-summary.json';
export const JUNIT_FILE = 'contracts-junit.xml';
export const COVERAGE_FILE = 'contracts-coverage.json';

export function summaryLine(s: Pick<SuiteSummary, 'passed' | 'failed' | 'skipped' | 'unverified'>): string {
  return `contracts: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped, ${s.unverified} unverified`;
}

export interface ReportOptions {
  /**
   * List every unverified operation and every gap in what the run exercised. Off by default
   * at the documented level, where most of them are the operations openapi.yaml infers and
   * the level does not call: there they fold into one line (the JSON summary has them all).
   */
  full?: boolean;
}

/** A readable account of the run: what failed and why, what was skipped and why, what is unverified. */
export function formatReport(summary: SuiteSummary, options: ReportOptions = {}): string {
  const full = options.full ?? summary.level === 'strict';
  const lines: string[] = [];
  lines.push(`Contract suite, ${summary.level} level, against ${summary.baseUrl}${summary.simulator ? ' (the simulator: fresh account, clock moved by the suite)' : ''}`);
  lines.push(`${summary.requests} requests, ${summary.tokensSpent} token(s) spent`);
  const failed = summary.results.filter((r) => r.status === 'failed');
  if (failed.length) {
    lines.push('', `FAILED (${failed.length}):`);
    for (const r of failed) lines.push(`  ✗ ${r.title}`, ...indent(r.message ?? '', '      '));
  }
  const skipped = summary.results.filter((r) => r.status === 'skipped');
  if (skipped.length) {
    lines.push('', `SKIPPED (${skipped.length}), by reason:`);
    const byReason = new Map<string, string[]>();
    for (const r of skipped) byReason.set(r.message ?? '', [...(byReason.get(r.message ?? '') ?? []), r.title]);
    for (const [reason, titles] of byReason) {
      lines.push(`  - ${reason} (${titles.length}):`);
      for (const t of titles.slice(0, 5)) lines.push(`      ${t}`);
      if (titles.length > 5) lines.push(`      … and ${titles.length - 5} more`);
    }
  }
  const open = summary.coverage.filter((c) => c.status !== 'verified');
  lines.push('', `COVERAGE: ${summary.coverage.length - open.length} of ${summary.coverage.length} operations verified by a specific scenario`);
  for (const c of open) {
    if (c.status === 'failed' || full) lines.push(`  ${c.status === 'failed' ? '✗ failed    ' : '? unverified'} ${c.operationId} (${c.method} ${c.path})${c.reason ? `: ${c.reason}` : ''}`);
  }
  if (summary.rules) lines.push(...formatRules(summary, full));
  if (summary.exercised) {
    const exercised = formatExerciseReport(summary.exercised);
    lines.push(...(full ? ['', ...exercised] : exercised.slice(0, 1)));
  }
  if (!full) {
    const folded = foldedGaps(summary);
    if (folded) lines.push(folded);
  }
  lines.push('', summaryLine(summary));
  return lines.join('\n');
}

/** The one line that stands for the unverified operations and the exercise gaps when they are not listed. */
function foldedGaps(summary: SuiteSummary): string | undefined {
  const unverified = summary.coverage.filter((c) => c.status === 'unverified');
  const parts: string[] = [];
  if (unverified.length) {
    const kinds = new Map<string, number>();
    for (const c of unverified) kinds.set(reasonKind(c.reason), (kinds.get(reasonKind(c.reason)) ?? 0) + 1);
    parts.push(`${unverified.length} operations unverified (${[...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ')})`);
  }
  const report = summary.exercised;
  if (report) {
    const never = report.operations.filter((o) => o.calls === 0).length;
    const partial = report.operations.filter((o) => o.calls > 0 && (o.statuses.missed.length || o.statuses.undocumented.length || o.parameters.some((p) => !p.exercised || p.missedValues.length))).length;
    if (never) parts.push(`${never} never called`);
    if (partial) parts.push(`${partial} called with statuses or parameters not reached`);
    if (report.errorCodes.missed.length) parts.push(`${report.errorCodes.missed.length} error codes never seen`);
  }
  if (!parts.length) return undefined;
  return `NOT LISTED: ${parts.join('; ')}. --list-unverified lists them; ${SUMMARY_FILE} has them all (gaps, coverage, exercised).`;
}

function reasonKind(reason: string | undefined): string {
  if (reason?.startsWith('inferred')) return 'inferred by openapi.yaml, not called at this level';
  if (reason?.startsWith('no specific scenario')) return 'covered by generic checks only';
  return 'whose scenarios were skipped';
}

export function writeSummary(summary: SuiteSummary, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, SUMMARY_FILE);
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  if (summary.exercised) writeFileSync(join(dir, COVERAGE_FILE), `${JSON.stringify({ ...summary.exercised, rules: rulesReport(summary) }, null, 2)}\n`);
  return file;
}

export function readSummary(dir: string): SuiteSummary | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, SUMMARY_FILE), 'utf8')) as SuiteSummary;
  } catch {
    return undefined;
  }
}

/** The rules of the catalogue by what the run did for them, and each that it did not exercise. */
function formatRules(summary: SuiteSummary, full: boolean): string[] {
  const { totals, open } = rulesReport(summary);
  const counts = `${totals.failed} failed, ${totals.skipped} skipped, ${totals.noCheck} with no check; ${totals.notAtThisLevel} strict rules not at this level`;
  const lines = [`RULES: ${totals.exercised} of ${totals.applicable} rules of this level exercised (${counts}); by source: ${bySource(summary.rules ?? []).join(', ')}`];
  for (const r of open) if (r.status === 'failed' || r.status === 'no check' || full) lines.push(`  ${r.status === 'failed' ? '✗' : '?'} ${r.id} (${r.source}, ${r.section}): ${r.status}${r.reason ? `: ${r.reason}` : ''}`);
  return lines;
}

/** Per source (the spec, openapi.yaml, each protocol): rules exercised of those of the run's level. */
function bySource(rules: NonNullable<SuiteSummary['rules']>): string[] {
  const sources = [...new Set(rules.map((r) => r.source))];
  return sources.map((source) => {
    const of = rules.filter((r) => r.source === source && r.status !== 'not at this level');
    return `${source} ${of.filter((r) => r.status === 'exercised').length} of ${of.length}`;
  });
}

/** What the coverage file says of the rules: totals, and the rules left open. */
export function rulesReport(summary: Pick<SuiteSummary, 'rules'>) {
  const rules = summary.rules ?? [];
  const count = (status: string) => rules.filter((r) => r.status === status).length;
  const totals = {
    rules: rules.length,
    applicable: rules.length - count('not at this level'),
    exercised: count('exercised'),
    failed: count('failed'),
    skipped: count('skipped'),
    noCheck: count('no check'),
    notAtThisLevel: count('not at this level'),
  };
  return { totals, open: rules.filter((r) => r.status !== 'exercised' && r.status !== 'not at this level'), entries: rules };
}

function indent(text: string, prefix: string): string[] {
  return text.split('\n').map((line) => `${prefix}${line}`);
}
