import { describe, expect, it } from 'vitest';
import { count, type DocumentResult, type Finding } from '../../scripts/fuzz/runner.js';
import { runFuzz, type FuzzOutcome } from '../../scripts/fuzz/session.js';
import { repeatRun } from '../support/once.js';

/**
 * A short run of `npm run fuzz`: every operation of openapi.yaml and simulator-control.yaml
 * gets schema-generated valid and invalid requests (the seeded key, wrong credentials, broken
 * parameters and bodies) against a CLI simulator on loopback, and no response is a 5xx or
 * breaks the contracts. The full run (thousands of requests) is `npm run fuzz`.
 */
describe.skipIf(repeatRun)('schema-driven fuzzing of both contracts', () => {
  it('answers every generated request without a 5xx, a dropped connection, a contract violation or an invalid request accepted', async () => {
    const outcome = await runFuzz({ examples: 10, rounds: 1, seed: 7, timeLimitMs: 25_000 });
    const [service, control] = outcome.documents as [DocumentResult, DocumentResult];
    expect(outcome.healthyAfter).toBe(true);
    for (const d of outcome.documents) {
      // Every operation was reached, with invalid requests among them.
      expect(Object.entries(d.perOperation).filter(([, n]) => n === 0).map(([op]) => op), d.document).toEqual([]);
      expect(d.requests.negative).toBeGreaterThan(d.operations / 2);
    }
    expect(service.operations).toBeGreaterThan(40);
    expect(control.operations).toBeGreaterThan(20);
    expect(findings(outcome), findings(outcome)).toBe('');
  }, 90_000);
});

function findings(outcome: FuzzOutcome): string {
  const lines: string[] = [];
  for (const d of outcome.documents) {
    const show = (label: string, list: Finding[]) => {
      if (count(list) === 0) return;
      lines.push(`${d.document}: ${count(list)} ${label}`);
      for (const f of list.slice(0, 5)) lines.push(`  ${f.request.method} ${f.request.path.slice(0, 120)} (${f.request.mutation ?? 'valid'}) → ${f.status}: ${f.problems.join('; ').slice(0, 400)}`);
    };
    show('5xx', d.serverErrors);
    show('contract violations', d.violations);
    show('transport failures', d.transport);
    show('invalid requests answered 2xx', d.acceptedInvalid);
    show('stateful check failures', d.stateful);
  }
  return lines.join('\n');
}
