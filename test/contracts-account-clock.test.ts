import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulatorControl, type FetchLike } from '../contracts/shared/server-time.js';
import { configFromEnv } from '../contracts/suite/config.js';
import { openSession } from '../contracts/suite/session.js';

/** A stand-in simulator that records the control calls and answers as a simulator of either generation. */
function fakeSimulator(offersAccountClocks: boolean) {
  const calls: Array<{ path: string; body: any }> = [];
  const clock = { now: '2026-03-02T09:00:00.000Z', nowMs: Date.parse('2026-03-02T09:00:00.000Z'), frozen: true };
  const fetchImpl: FetchLike = async (input, init) => {
    const path = new URL(input).pathname;
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, body });
    const json = (status: number, value: unknown) => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
    if (path === '/_sim') return json(200, { name: 'content-service-simulator', version: '1', seed: 's', pipelineSpeed: 'fast', clock, ...(offersAccountClocks ? { accountClocks: true } : {}) });
    if (path === '/_sim/accounts') {
      const keys = { readWrite: 'rw', readOnly: 'ro', writeOnly: 'wo', revoked: 'rv' };
      const own = body.clock ? { clock: { accountId: 'acc-1', own: true, ...clock } } : {};
      return json(201, { accountId: 'acc-1', name: body.name, balance: body.balance, keys, ...own });
    }
    if (path.endsWith('/advance')) return json(200, { ...clock, nowMs: clock.nowMs + body.ms });
    return json(200, clock);
  };
  return { calls, fetchImpl };
}

describe('the contract suite on a simulator with clocks per account', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives its account a clock of its own and moves only that one', async () => {
    const sim = fakeSimulator(true);
    const control = (await SimulatorControl.discover('http://sim.test', sim.fetchImpl, () => []))!;
    expect(control.accountClocks).toBe(true);
    await control.createAccount('Contract checks', 1000, true);
    await control.advance(61_000);
    await control.freeze();
    expect(sim.calls.map((c) => c.path)).toEqual(['/_sim', '/_sim/accounts', '/_sim/accounts/acc-1/clock/advance', '/_sim/accounts/acc-1/clock/freeze']);
    expect(sim.calls[1]!.body.clock).toEqual({ own: true });
    expect(control.ownClock).toBe(true);
    expect(control.now()).toBe(Date.parse('2026-03-02T09:00:00.000Z'));
  });

  it('falls back to the simulator\'s clock on an older simulator', async () => {
    const sim = fakeSimulator(false);
    const control = (await SimulatorControl.discover('http://sim.test', sim.fetchImpl, () => []))!;
    await control.createAccount('Contract checks', 1000, true);
    await control.advance(1_000);
    expect(sim.calls.map((c) => c.path)).toEqual(['/_sim', '/_sim/accounts', '/_sim/clock/advance']);
    expect(sim.calls[1]!.body.clock).toBeUndefined();
    expect(control.ownClock).toBe(false);
    expect(control.simulatorNow()).toBeUndefined();
  });

  it('says in one line, and only then, that it moves the shared clock', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    for (const offers of [true, false]) {
      const sim = fakeSimulator(offers);
      const session = await openSession(configFromEnv({ CONTRACT_BASE_URL: 'http://sim.test' }), sim.fetchImpl);
      expect(session.setupFailure).toBeUndefined();
    }
    expect(write.mock.calls.map(([text]) => String(text))).toEqual(["contracts: this simulator has no clocks per account (an older version): the run moves the simulator's shared clock\n"]);
  });
});
