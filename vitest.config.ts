import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Most test time is spent waiting on servers, child processes and sockets, not on the CPU, so
 * the files run in one more worker than there are cores (vitest's default is one fewer, which
 * is one worker on a 2-core machine). TEST_WORKERS overrides it.
 */
const workers = Number(process.env.TEST_WORKERS) || availableParallelism() + 1;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: workers,
    // The default report, and a line every 30 s saying what runs, so a long file is never silence.
    reporters: ['default', './test/support/progress-reporter.ts'],
    // Runs of `content-contracts` that tests spawn use one model-phase seed, so a test's outcome
    // does not depend on the draw; test/contract-model.test.ts explores seeds of its own.
    env: { CONTRACT_MODEL_SEED: '20261126' },
  },
});
