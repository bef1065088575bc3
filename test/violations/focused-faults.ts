/**
 * Seeded faults judged by the checks that must catch them, run alone (a whole suite per fault
 * would take minutes): each fault makes one of its checks fail, naming the broken rule, and
 * those same checks pass against the correct simulator.
 */
import { describe, expect, it } from 'vitest';
import { repeatRun } from '../support/once.js';
import { failedOf, runFocused } from '../support/focused-run.js';
import type { FocusedViolation } from './property-faults.js';

export function describeFocusedFaults(title: string, faults: readonly FocusedViolation[]): void {
  describe.skipIf(repeatRun)(title, () => {
    it('have ids of their own, and the checks they name pass against the correct simulator', async () => {
      expect(new Set(faults.map((f) => f.id)).size).toBe(faults.length);
      const results = await runFocused([...new Set(faults.flatMap((f) => f.checks))]);
      expect(results.length).toBeGreaterThanOrEqual(new Set(faults.flatMap((f) => f.checks)).size);
      expect(failedOf(results)).toBe('');
      expect(results.filter((r) => r.status === 'passed').length, 'checks that passed').toBe(results.length);
    });

    it.each(faults.map((f) => [f.id, f] as const))('%s fails its check, naming the broken rule', async (_, fault) => {
      const results = await runFocused(fault.checks, fault);
      const report = failedOf(results);
      expect(report, `${fault.description}: no check failed`).not.toBe('');
      expect(report, `${fault.description}: no failure names "${fault.rule}"`).toContain(fault.rule);
    });

    // A rule the spec states is held at the documented level too: what a team testing the real service runs.
    it.each(faults.filter((f) => f.documented).map((f) => [f.id, f] as const))('%s is caught at the documented level too', async (_, fault) => {
      const results = await runFocused(fault.checks, fault, { CONTRACT_LEVEL: 'documented' });
      expect(failedOf(results), `${fault.description}: no failure names "${fault.rule}" at the documented level`).toContain(fault.rule);
    });
  });
}
