import { defineConfig } from 'vitest/config';

/** One slow spec file reported by the suite's own progress reporter, beating every 200 ms. */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.spec.ts'],
    reporters: ['default', '../../support/progress-reporter.ts'],
  },
});
