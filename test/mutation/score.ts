/**
 * Reads Stryker's JSON report (mutation-testing-report-schema) and says what the contract suite
 * caught: per folder of src/, the mutants killed, survived, timed out, not covered, and the
 * equivalent ones (equivalents.ts), then every survivor with its place and change.
 *
 * The score is killed ÷ (killed + survived + not covered): a mutant no check reached is a fault
 * the suite misses as surely as one it reached and passed. Timeouts (an endless loop the mutant
 * made) are counted apart, in neither; equivalent mutants are out of the score, each with its reason.
 */
import { EQUIVALENTS, type Equivalent } from './equivalents.js';

export const REPORT_FILE = 'reports/mutation/mutation.json';
export const INCREMENTAL_FILE = 'reports/mutation/incremental.json';

/** A glob of the sample (`*` within a name, `**` across folders, `!` to leave out) as a test of a path. */
function globTest(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '(?:.*/)?');
  return new RegExp(`^${body}$`);
}

/** The report's files that the sample's globs take, and their mutants that were tested (an interrupted run leaves some pending). */
export function inSample(report: MutationReport, globs: readonly string[]): MutationReport {
  const take = globs.filter((g) => !g.startsWith('!')).map(globTest);
  const leave = globs.filter((g) => g.startsWith('!')).map((g) => globTest(g.slice(1)));
  const files = Object.entries(report.files)
    .filter(([file]) => take.some((t) => t.test(file)) && !leave.some((t) => t.test(file)))
    .map(([file, f]) => [file, { ...f, mutants: f.mutants.filter((m) => m.status !== 'Pending') }] as const);
  return { files: Object.fromEntries(files) };
}

interface Position {
  line: number;
  column: number;
}

export interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  location: { start: Position; end: Position };
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
}

export interface MutationReport {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

export interface FolderScore {
  folder: string;
  mutants: number;
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  equivalent: number;
  /** Errors and ignored mutants: not part of the sample. */
  other: number;
}

export interface Survivor {
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
  status: 'Survived' | 'NoCoverage';
}

/** The code a mutant replaced, on one line. */
function originalText(source: string, { start, end }: ReportMutant['location']): string {
  const lines = source.split('\n');
  const picked = lines.slice(start.line - 1, end.line);
  if (picked.length === 0) return '';
  picked[picked.length - 1] = picked[picked.length - 1]!.slice(0, end.column - 1);
  picked[0] = picked[0]!.slice(start.column - 1);
  return picked.join(' ').replace(/\s+/g, ' ').trim();
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function folderOf(file: string): string {
  const parts = file.replace(/\\/g, '/').split('/');
  const at = parts.indexOf('src');
  return at >= 0 && parts.length > at + 2 ? parts.slice(at, at + 2).join('/') : parts.slice(0, -1).join('/');
}

/** The equivalent entry a survivor matches: same file, line and mutator, and the replacement and the original code when given. */
export function equivalentOf(survivor: Survivor, list: readonly Equivalent[] = EQUIVALENTS): Equivalent | undefined {
  return list.find(
    (e) =>
      survivor.file.endsWith(e.file) &&
      e.line === survivor.line &&
      e.mutator === survivor.mutator &&
      (e.replacement === undefined || oneLine(e.replacement) === oneLine(survivor.replacement)) &&
      (e.original === undefined || oneLine(e.original) === oneLine(survivor.original)),
  );
}

export function scoreOf(f: Pick<FolderScore, 'killed' | 'survived' | 'noCoverage'>): number | null {
  const judged = f.killed + f.survived + f.noCoverage;
  return judged === 0 ? null : (100 * f.killed) / judged;
}

export function tally(report: MutationReport, list: readonly Equivalent[] = EQUIVALENTS) {
  const folders = new Map<string, FolderScore>();
  const survivors: Survivor[] = [];
  const equivalents: Array<Survivor & { reason: string }> = [];
  for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const name = folderOf(file);
    const folder = folders.get(name) ?? { folder: name, mutants: 0, killed: 0, survived: 0, timeout: 0, noCoverage: 0, equivalent: 0, other: 0 };
    folders.set(name, folder);
    for (const m of mutants) {
      folder.mutants++;
      if (m.status === 'Killed') folder.killed++;
      else if (m.status === 'Timeout') folder.timeout++;
      else if (m.status === 'Survived' || m.status === 'NoCoverage') {
        const survivor: Survivor = { file, line: m.location.start.line, mutator: m.mutatorName, original: originalText(source, m.location), replacement: m.replacement ?? '', status: m.status };
        const equivalent = equivalentOf(survivor, list);
        if (equivalent) {
          folder.equivalent++;
          equivalents.push({ ...survivor, reason: equivalent.reason });
        } else if (m.status === 'Survived') {
          folder.survived++;
          survivors.push(survivor);
        } else {
          folder.noCoverage++;
          survivors.push(survivor);
        }
      } else folder.other++;
    }
  }
  const rows = [...folders.values()];
  const total: FolderScore = { folder: 'all', mutants: 0, killed: 0, survived: 0, timeout: 0, noCoverage: 0, equivalent: 0, other: 0 };
  for (const row of rows) for (const key of ['mutants', 'killed', 'survived', 'timeout', 'noCoverage', 'equivalent', 'other'] as const) total[key] += row[key];
  return { rows, total, survivors, equivalents };
}

/** The printed summary, and the overall score (null when nothing was judged). */
export function scoreReport(report: MutationReport, list: readonly Equivalent[] = EQUIVALENTS): { text: string; score: number | null } {
  const { rows, total, survivors, equivalents } = tally(report, list);
  const percent = (f: FolderScore) => {
    const s = scoreOf(f);
    return s === null ? '-' : `${s.toFixed(1)}%`;
  };
  const header = ['folder', 'mutants', 'killed', 'survived', 'timeout', 'no coverage', 'equivalent', 'other', 'score'];
  const cells = [...rows, total].map((r) => [r.folder, r.mutants, r.killed, r.survived, r.timeout, r.noCoverage, r.equivalent, r.other, percent(r)].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  const out = ['Mutation score per folder (killed ÷ killed + survived + no coverage):', '', line(header), ...cells.map(line), ''];
  out.push(`Survivors (${survivors.length}):`);
  for (const s of survivors) out.push(`  ${s.file}:${s.line}  ${s.mutator}${s.status === 'NoCoverage' ? ' (no check reaches it)' : ''}\n      ${oneLine(s.original)}  →  ${oneLine(s.replacement)}`);
  out.push('', `Equivalent (${equivalents.length}, out of the score):`);
  for (const e of equivalents) out.push(`  ${e.file}:${e.line}  ${e.mutator}  ${oneLine(e.original, 60)} → ${oneLine(e.replacement, 60)}\n      ${e.reason}`);
  return { text: out.join('\n'), score: scoreOf(total) };
}
