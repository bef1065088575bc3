/**
 * Starts the longest test files first. Vitest orders a run by the durations it cached from the
 * last one, and without a cache (a fresh clone, CI) by file size, which puts the small files
 * that drive long runs (the seeded-violation parts, one line each) last, where nothing runs
 * beside them. The files below go first, in this order; the rest keep vitest's order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST_FIRST = [
  'test/violations/seeded-',
  'test/contract-proxy.test.ts',
  'test/observe/journal-stream-flood.test.ts',
  'test/docs/guides-in-new-projects.test.ts',
  'test/oauth/token-flood.test.ts',
  'test/contract-suite',
  'test/package/',
  'test/contract-model',
  'test/capacity.test.ts',
  'test/cli.test.ts',
  'test/state/',
  'test/field/',
];

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const path = relative(file.project.config.root, file.moduleId);
      const at = LONGEST_FIRST.findIndex((prefix) => path.startsWith(prefix));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    return ordered.map((file, at) => ({ file, at, rank: rank(file) })).sort((a, b) => a.rank - b.rank || a.at - b.at).map(({ file }) => file);
  }
}
