/**
 * `npm run mutation` is its own command (it takes hours on a shared machine); this keeps its setup valid:
 * the sample names files that exist and leaves out what the contract does not judge, the
 * equivalent mutants still point at the code they excuse, and the score counts as documented.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import strykerConfig from './mutation/stryker.config.mjs';
import mutationVitest from './mutation/vitest.config.js';
import { EQUIVALENTS } from './mutation/equivalents.js';
import { MUTATE } from './mutation/sample.mjs';
import { inSample, scoreReport, type MutationReport } from './mutation/score.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

/** A report in Stryker's schema with one mutant per status given, all on line 1 of `file`. */
function report(file: string, statuses: string[]): MutationReport {
  const mutants = statuses.map((status, i) => ({ id: String(i), mutatorName: 'ConditionalExpression', replacement: 'false', location: { start: { line: 1, column: 1 }, end: { line: 1, column: 5 } }, status }));
  return { files: { [file]: { source: 'code', mutants } } } as MutationReport;
}

describe('the mutation testing setup', () => {
  const sampled = inSample({ files: Object.fromEntries(sourceFiles('src').map((f) => [f, { source: '', mutants: [] }])) }, MUTATE);
  const files = Object.keys(sampled.files);

  it('samples whole files of the behavioural folders, and none of what the contract does not judge', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const glob of MUTATE.filter((g) => !g.startsWith('!'))) expect(inSample({ files: Object.fromEntries(files.map((f) => [f, { source: '', mutants: [] }])) }, [glob]).files, glob).not.toEqual({});
    for (const file of files) {
      expect(file).toMatch(/\.ts$/);
      expect(file).not.toMatch(/\.test\.ts$|^src\/(web|cli|content|media|chat|suggestions|observe|persist|client-report|adapters|fixtures)\//);
    }
  });

  it('runs the contract suite one area of checks per test, one process, only the areas that reach a mutant', () => {
    expect(strykerConfig).toMatchObject({ testRunner: 'vitest', coverageAnalysis: 'perTest', concurrency: 1, vitest: { configFile: 'test/mutation/vitest.config.ts' } });
    expect(strykerConfig.mutate).toEqual(MUTATE);
    // Not part of npm test: the mutation tests are *.mutation.ts, which the root config does not take.
    expect(mutationVitest.test?.include).toEqual(['test/mutation/*.mutation.ts']);
    const own = readdirSync(join(root, 'test/mutation')).filter((f) => f.endsWith('.ts'));
    expect(own.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
    expect(own).toContain('contract-checks.mutation.ts');
  });

  it('points every equivalent mutant at the code it excuses, with a reason', () => {
    for (const e of EQUIVALENTS) {
      const line = readFileSync(join(root, e.file), 'utf8').split('\n')[e.line - 1] ?? '';
      expect(line, `${e.file}:${e.line}`).toContain(e.code);
      if (e.original) expect(line, `${e.file}:${e.line}`).toContain(e.original);
      expect(e.reason.length, `${e.file}:${e.line}`).toBeGreaterThan(20);
      expect(relative(root, join(root, e.file))).toMatch(/^src\//);
    }
  });

  it('scores killed over killed, survived and not covered; timeouts apart, equivalents out, every survivor listed', () => {
    const file = 'src/ledger/ledger.ts';
    const { text, score } = scoreReport(report(file, ['Killed', 'Killed', 'Killed', 'Survived', 'NoCoverage', 'Timeout', 'Ignored']), []);
    expect(score).toBeCloseTo(60);
    expect(text).toMatch(/src\/ledger\s+7\s+3\s+1\s+1\s+1\s+0\s+1\s+60\.0%/);
    expect(text).toContain('Survivors (2):');
    const excused = [{ file, line: 1, mutator: 'ConditionalExpression', code: 'code', reason: 'a reason long enough to say why' }];
    const withEquivalent = scoreReport(report(file, ['Killed', 'Survived']), excused);
    expect(withEquivalent.score).toBe(100);
    expect(withEquivalent.text).toContain('Equivalent (1, out of the score)');
    // Two mutants of one mutator and replacement on a line are told apart by the code they replaced (here 'code').
    expect(scoreReport(report(file, ['Killed', 'Survived']), [{ ...excused[0]!, original: 'other code' }]).score).toBe(50);
    expect(scoreReport(report(file, ['Killed', 'Survived']), [{ ...excused[0]!, original: 'code' }]).score).toBe(100);
    expect(scoreReport(report(file, ['Pending']), []).score).toBeNull();
    expect(inSample(report(file, ['Killed', 'Pending']), ['src/ledger/*.ts']).files[file]?.mutants).toHaveLength(1);
    expect(inSample(report(file, ['Killed']), ['src/limits/*.ts']).files).toEqual({});
  });
});
