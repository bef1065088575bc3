/**
 * The seeded contract violations, each run against the strict suite in-process. The catalogue
 * is split over a few test files (seeded-*.test.ts) so that test workers share it; each file takes
 * every n-th violation.
 *
 * Each fault is run against the checks of the areas of the contract it breaks (its part of
 * the catalogue says which: auth, builds, mcp, …), not against all of them: which check fails,
 * and that its failure names the rule, is still the suite's to find among every check of those
 * areas (dozens), and the other areas' checks never see the fault, so running them proves
 * nothing more. Each area's run passes against the correct simulator (the first test), so a
 * failure is the fault's. The whole suite against the correct simulator is
 * test/contract-suite.test.ts, and the documented-level runs below are whole.
 *
 * Whether a fault is caught is the suite's and the simulator's logic, the same on every Node: the
 * catalogue runs on CI's first pass; the later ones run the suite against a correct simulator.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runContractSuite } from '../../contracts/suite/runner.js';
import { repeatRun } from '../support/once.js';
import { VIOLATIONS } from './catalog.js';
import { config, failures, runAreas } from './suite-run.js';
import { simulatorUnderTest } from './violated-simulator.js';

export const SHARDS = 4;

type Violation = (typeof VIOLATIONS)[number];
const strictRun = (violation: Violation) => (violation.areas ? runAreas(violation.areas, config(), simulatorUnderTest(violation).fetch) : runContractSuite(config(), simulatorUnderTest(violation).fetch));
const areasOf = (violation: Violation) => violation.areas?.join(', ') ?? 'the whole suite';

export function describeSeededViolations(shard: number): void {
  const mine = VIOLATIONS.filter((_, index) => index % SHARDS === shard - 1);
  describe.skipIf(repeatRun)(`seeded contract violations, part ${shard} of ${SHARDS}`, () => {
    const caught: string[] = [];
    if (shard === 1) {
      it('are at least 100 in all, each with its own id and areas that have checks, whose runs pass against the correct simulator', { timeout: 240_000 }, async () => {
        expect(VIOLATIONS.length).toBeGreaterThanOrEqual(100);
        expect(new Set(VIOLATIONS.map((v) => v.id)).size).toBe(VIOLATIONS.length);
        const whole = await runContractSuite(config(), simulatorUnderTest().fetch);
        const skippedInWhole = new Set(whole.results.filter((r) => r.status === 'skipped').map((r) => r.id));
        for (const areas of new Set(VIOLATIONS.flatMap((v) => (v.areas ? [v.areas.join(',')] : [])))) {
          const summary = await runAreas(areas.split(','), config(), simulatorUnderTest().fetch);
          expect(failures(summary), `the checks of ${areas} against the correct simulator`).toBe('');
          // Nothing they need is made by a check left out: they skip only what the whole run skips.
          expect(summary.results.filter((r) => r.status === 'skipped' && !skippedInWhole.has(r.id)).map((r) => `${r.id}: ${r.message}`), areas).toEqual([]);
          // The set-up step is an area of its own; every other area named has checks that ran.
          for (const area of areas.split(',')) expect(summary.results.filter((r) => r.area === area && r.status === 'passed').length, `${area}: passed checks`).toBeGreaterThan(0);
        }
      });
    }
    afterAll(() => {
      console.log(`violations caught (part ${shard} of ${SHARDS}): ${caught.length}/${mine.length}`);
    });

    it.each(mine.map((v) => [v.id, v] as const))('%s makes the suite fail, naming the broken rule', async (_, violation) => {
      const summary = await strictRun(violation);
      const report = failures(summary);
      expect(summary.failed, `${violation.description}: no check of ${areasOf(violation)} failed`).toBeGreaterThan(0);
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
