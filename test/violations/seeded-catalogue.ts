/**
 * The seeded contract violations, each run against a whole strict suite in-process. The catalogue
 * is split over a few test files (seeded-*.test.ts) so that test workers share it; each file takes
 * every n-th violation.
 *
 * Whether a fault is caught is the suite's and the simulator's logic, the same on every Node: the
 * catalogue runs on CI's first pass; the later ones run the suite against a correct simulator.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runContractSuite } from '../../contracts/lib/runner.js';
import { repeatRun } from '../support/once.js';
import { VIOLATIONS } from './catalog.js';
import { config, failures } from './suite-run.js';
import { simulatorUnderTest } from './violated-simulator.js';

export const SHARDS = 4;

export function describeSeededViolations(shard: number): void {
  const mine = VIOLATIONS.filter((_, index) => index % SHARDS === shard - 1);
  describe.skipIf(repeatRun)(`seeded contract violations, part ${shard} of ${SHARDS}`, () => {
    const caught: string[] = [];
    if (shard === 1) {
      it('are at least 100 in all, each with its own id', () => {
        expect(VIOLATIONS.length).toBeGreaterThanOrEqual(100);
        expect(new Set(VIOLATIONS.map((v) => v.id)).size).toBe(VIOLATIONS.length);
      });
    }
    afterAll(() => {
      console.log(`violations caught (part ${shard} of ${SHARDS}): ${caught.length}/${mine.length}`);
    });

    it.each(mine.map((v) => [v.id, v] as const))('%s makes the suite fail, naming the broken rule', async (_, violation) => {
      const summary = await runContractSuite(config(), simulatorUnderTest(violation).fetch);
      const report = failures(summary);
      expect(summary.failed, `${violation.description}: no check failed`).toBeGreaterThan(0);
      expect(report, `${violation.description}: no failure names "${violation.rule}"`).toContain(violation.rule);
      caught.push(violation.id);
    });

    // Those whose rule the spec states are caught by the documented level too, which is what a team testing the real service runs.
    it.each(mine.filter((v) => v.documented).map((v) => [v.id, v] as const))('%s is caught at the documented level too', async (_, violation) => {
      const summary = await runContractSuite(config({ CONTRACT_LEVEL: 'documented' }), simulatorUnderTest(violation).fetch);
      const rule = typeof violation.documented === 'string' ? violation.documented : violation.rule;
      expect(failures(summary), `${violation.description}: no failure names "${rule}" at the documented level`).toContain(rule);
    });
  });
}
