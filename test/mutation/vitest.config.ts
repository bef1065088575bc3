import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The contract suite as the test of mutants (stryker.config.mjs): its files only, one worker. */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    include: ['test/mutation/*.mutation.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { CONTRACT_MODEL_SEED: '20261126' },
  },
});
