import { defineConfig } from 'vitest/config';

/** One spec file whose first test's client polls too fast: the fixture's assertion must fail it, naming the rule. */
export default defineConfig({
  test: { root: import.meta.dirname, include: ['*.spec.ts'], pool: 'forks', maxWorkers: 1, testTimeout: 60_000, sequence: { concurrent: false } },
});
