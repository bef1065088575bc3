import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Runs of `content-contracts` that tests spawn use one model-phase seed, so a test's outcome
    // does not depend on the draw; test/contract-model.test.ts explores seeds of its own.
    env: { CONTRACT_MODEL_SEED: '20261126' },
  },
});
