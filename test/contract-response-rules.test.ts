import { describe, expect, it } from 'vitest';
import { ContractValidator } from '../contracts/shared/contract-validator.js';
import { CONTRACT_FILES, readOperations } from '../contracts/shared/openapi-model.js';
import { ResponseRules, RULES } from '../contracts/shared/response-rules.js';

const validator = ContractValidator.fromFiles(CONTRACT_FILES, { allowUndocumentedHeaders: true });
const createBuild = readOperations().find((o) => o.id === 'createBuild')!;
const RESET = 1_800_000_060;
const time = { nowNear: () => (RESET - 30) * 1000, toleranceMs: 1000 };

/** The Remaining-falls failures of a series of successful build creations with one key, in the order they were answered. */
function remainingFailures(remainings: number[]): string[] {
  const rules = new ResponseRules(validator, time, 'documented');
  const body = JSON.stringify({ buildId: crypto.randomUUID(), correlationId: 'corr_abc' });
  return remainings.flatMap((remaining) =>
    rules
      .inspect({ method: 'POST', url: '/api/v1/builds', status: 202, headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(RESET) }, text: body, operation: createBuild, key: 'k' })
      .filter((f) => f.startsWith(RULES.remainingFalls)),
  );
}

describe('X-RateLimit-Remaining falls by one per call', () => {
  it('holds for calls answered in order, and for concurrent ones answered out of order', () => {
    expect(remainingFailures([9, 8, 7, 6])).toEqual([]);
    expect(remainingFailures([9, 6, 8, 7, 5])).toEqual([]); // three calls at once, the last answered first
  });

  it('fails a Remaining that stays or rises at once, and one that falls by two once the skipped value is overdue', () => {
    expect(remainingFailures([9, 9])).toHaveLength(1);
    expect(remainingFailures([9, 7, 8, 9])).toHaveLength(1);
    expect(remainingFailures([9, 7, 5, 3, 1])).toEqual([]); // not yet overdue
    expect(remainingFailures([10, 8, 7, 6, 5, 4, 3])).toEqual([expect.stringContaining('no call was answered with Remaining 9')]);
  });
});
