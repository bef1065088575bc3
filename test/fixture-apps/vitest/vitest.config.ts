import { defineConfig } from 'vitest/config';

/** Two spec files, two workers at once: each loads its own scenario into its own in-process simulator. */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.spec.ts'],
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    testTimeout: 60_000,
  },
});
