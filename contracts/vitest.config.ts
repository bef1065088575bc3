import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The contract suite alone: one file, its checks in order, no time limit of vitest's (the suite has its own). */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['contracts/suite.contract.ts'],
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 3_600_000,
    hookTimeout: 3_600_000,
  },
});
