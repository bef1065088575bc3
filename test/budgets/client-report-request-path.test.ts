import { afterEach, describe, expect, it, vi } from 'vitest';
import { RULE_IDS } from '../../src/client-report/rules.js';
import { createSimulator } from '../../src/simulator.js';

/**
 * What the client report adds to a request, as counts (the timed comparison is
 * bench/client-report.bench.ts): judging an exchange the engine answered looks up no account
 * and reads no clock. The engine hands both (the account it authenticated, the real time it
 * took when the request came), so the same calls made with the report on and off read the
 * account table and the real clock exactly as often. Before, each exchange looked its account
 * up again, and each build read and creation read the clock once more.
 */
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function client(reportOn: boolean) {
  const sim = createSimulator({ seed: 'request-path', frozenAt: '2026-03-02T09:00:00Z', ...(reportOn ? {} : { clientRulesOff: RULE_IDS }) });
  const headers = { authorization: `Bearer ${sim.keys.readWrite}`, 'content-type': 'application/json' };
  const targetId = JSON.parse(sim.handle({ method: 'POST', url: '/api/v1/targets', headers, body: json({ name: 'Path', slug: 'path' }) }).body as string).id as string;
  const body = json({ targetId, kind: 'blog', objective: 'The request path' });
  let n = 0;
  const calls = {
    create: () => sim.handle({ method: 'POST', url: '/api/v1/builds', headers: { ...headers, 'idempotency-key': `path-${n++}` }, body }),
    getBuild: (id: string) => sim.handle({ method: 'GET', url: `/api/v1/builds/${id}`, headers }),
    getBalance: () => sim.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers }),
  };
  return { sim, calls };
}

/** How many times the account table and the real clock are read while `run` makes its calls. */
function reads(sim: ReturnType<typeof createSimulator>, run: () => void): { accounts: number; clock: number } {
  const accounts = vi.spyOn(sim.internal.store.accounts, 'get');
  const clock = vi.spyOn(performance, 'now');
  const date = vi.spyOn(Date, 'now');
  run();
  const counted = { accounts: accounts.mock.calls.length, clock: clock.mock.calls.length + date.mock.calls.length };
  vi.restoreAllMocks();
  return counted;
}

afterEach(() => vi.restoreAllMocks());

describe('the client report on the request path', () => {
  it('reads no account and no clock beyond what the engine already read', () => {
    const seen: Record<string, { accounts: number; clock: number }>[] = [];
    for (const reportOn of [true, false]) {
      const { sim, calls } = client(reportOn);
      const first = JSON.parse(calls.create().body as string).buildId as string;
      const counts: Record<string, { accounts: number; clock: number }> = {};
      counts.create = reads(sim, () => {
        for (let i = 0; i < 5; i++) calls.create();
      });
      counts.getBuild = reads(sim, () => {
        for (let i = 0; i < 5; i++) calls.getBuild(first);
      });
      counts.getBalance = reads(sim, () => {
        for (let i = 0; i < 5; i++) calls.getBalance();
      });
      seen.push(counts);
      // The report was on and judging: the reads of a build on a frozen clock are polls too fast.
      if (reportOn) expect(sim.clientReport(sim.internal.store.findKey(sim.keys.readWrite)!.accountId)!.findings.map((f) => f.rule)).toContain('poll-too-fast');
    }
    const [on, off] = seen as [Record<string, { accounts: number; clock: number }>, Record<string, { accounts: number; clock: number }>];
    expect(on).toEqual(off);
    // The counts are counts of something: the engine itself reads the clock on every call.
    expect(off.getBalance!.clock).toBeGreaterThanOrEqual(5);
  });
});
