import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { repeatRun, sameOnEveryNode, sharingModules } from './test/support/once.js';

/**
 * Most test time is spent waiting on servers, child processes and sockets, not on the CPU, so
 * the files run in one more worker than there are cores (vitest's default is one fewer, which
 * is one worker on a 2-core machine). TEST_WORKERS overrides it.
 */
const workers = Number(process.env.TEST_WORKERS) || availableParallelism() + 1;

/**
 * Files that hold the server to a latency (a /healthz within 50 or 100 ms while it works, a
 * page read within 50 ms): they run after the others, one at a time, so that what they time
 * is the server and not a neighbouring test's load.
 */
const TIMED = [
  'test/state/checkpoint-stall.test.ts',
  'test/state/mcp-tasks-cost.test.ts',
  'test/scenarios/load-yields.test.ts',
  'test/scenarios/load-yields-restore.test.ts',
  'test/security/quotas.test.ts',
  'test/security/connection-flood.test.ts',
  'test/security/hot-spots.test.ts',
  'test/mcp/mcp-invalid-params.test.ts',
  'test/observe/fault-responses.test.ts',
  // Its memory check reads the server's RSS after a minute's flood: a neighbour's load delays the collections that return it.
  'test/observe/journal-stream-flood.test.ts',
];

/**
 * CI's repeat passes on the newer Nodes run only what can differ by runtime: the files that
 * drive none of Node's own APIs run on the first pass (the rule is in test/support/once.ts).
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const firstPassOnly = repeatRun ? sameOnEveryNode(root) : [];

/**
 * Of those, the files that leave nothing behind share their workers' modules (isolate: false):
 * each imports the engine, the contract suite and their validators once per worker instead of
 * once per file, which was most of a small file's time (the rule is in test/support/once.ts).
 */
const SHARED = repeatRun ? [] : sharingModules(root).filter((file) => !TIMED.includes(file));

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The default report, and a line every 30 s saying what runs, so a long file is never silence.
    reporters: ['default', './test/support/progress-reporter.ts'],
    sequence: { sequencer: (await import('./test/support/heavy-first-sequencer.js')).default },
    // Runs of `content-contracts` that tests spawn use one model-phase seed, so a test's outcome
    // does not depend on the draw; test/contract-model.test.ts explores seeds of its own.
    env: { CONTRACT_MODEL_SEED: '20261126' },
    projects: [
      { extends: true, test: { name: 'parallel', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...TIMED, ...firstPassOnly, ...SHARED], maxWorkers: workers, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'in-process', include: SHARED, isolate: false, maxWorkers: workers, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'timed', include: TIMED, exclude: [...configDefaults.exclude, ...firstPassOnly], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
