// @ts-check
/**
 * Mutation testing of the simulator with the contract suite as the test (`npm run mutation`,
 * test/mutation/run.ts): Stryker mutates the behavioural code of src/, and the contract suite,
 * one check per test (contract-checks.mutation.ts), must notice. The sample is in sample.mjs.
 */
import { MUTATE } from './sample.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'test/mutation/vitest.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  // Each mutant runs only the checks that reached its code during the first run.
  coverageAnalysis: 'perTest',
  mutate: process.env.MUTATE ? process.env.MUTATE.split(',') : MUTATE,
  // The machine is shared: one test process.
  concurrency: 1,
  // A mutant that loops is a timeout (detected); on a loaded machine a small margin is enough.
  timeoutMS: 5_000,
  timeoutFactor: 1.25,
  // A mutant reached while modules load or the suite sets up would run every check: out of the
  // sample, counted by the summary as 'other'.
  ignoreStatic: true,
  // The sandbox holds what the suite needs to run in-process, nothing more.
  ignorePatterns: ['/*', '!/src', '!/contracts', '!/scripts', '!/test', '/test/*', '!/test/mutation', '!/test/violations', '!/test/support',
    '!/openapi.yaml', '!/simulator-control.yaml', '!/package.json', '!/tsconfig*.json', '!/scenario.schema.json', '!/serve-config.schema.json', '**/*.test.ts'],
  tempDirName: 'reports/mutation/sandbox',
  cleanTempDir: 'always',
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['json', process.stdout.isTTY ? 'progress' : 'progress-append-only'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
};
