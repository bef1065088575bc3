/** How the contract suite's own tests run it in-process, and read what it found. */
import { configFromEnv } from '../../contracts/lib/config.js';
import type { SuiteSummary } from '../../contracts/lib/runner.js';

const BASE = 'http://simulator.in-process';

/** A strict in-process run; the model-based phase has tests of its own (contract-model.test.ts). */
export function config(env: Record<string, string> = {}) {
  return configFromEnv({ CONTRACT_BASE_URL: BASE, CONTRACT_LEVEL: 'strict', CONTRACT_RUN_ID: 'self-test', CONTRACT_MODEL: '0', ...env });
}

export function outcome(summary: SuiteSummary, id: string) {
  return summary.results.find((r) => r.id === id);
}

/** Every failed check, with its message: '' when none failed. */
export function failures(summary: SuiteSummary): string {
  return summary.results
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.title}\n${r.message}`)
    .join('\n\n');
}
