/**
 * A scenario loaded over the control API is loaded a slice at a time: another client's
 * /healthz is answered within 100 ms while it loads (nineteen times in twenty on a loaded
 * machine, never past 250 ms), whatever the scenario's size: each slice is a few requests of
 * the load, never the whole. Each sample is paired with one of an idle
 * server beside it: when that one was slow too, the machine stalled both, and the pair is left out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { shippedScenarios } from '../../src/scenarios/shipped.js';
import { startCli, type CliServer } from '../support/cli-server.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';
import { describeSamples, expectWithinBound, sampleWhile, timedHealthz } from './healthz-beside.js';

const servers: CliServer[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.stop()));

const STATUSES = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed', 'failed'] as const;

/** Accounts at the caps that cost the most to load: a hundred builds each, and one of 25 rate-limited keys. */
function largeScenario(accounts: number) {
  return {
    scenario: 'large',
    accounts: [
      ...Array.from({ length: accounts }, (_, a) => ({
        name: `busy-${a}`,
        balance: 100_000,
        targets: [{ name: 'Acme', slug: 'acme', description: 'Industrial robots for small workshops. '.repeat(20), brandKit: { voice: 'plain', tone: 'warm' } }],
        builds: Array.from({ length: 100 }, (_, i) => {
          const status = STATUSES[i % STATUSES.length]!;
          return { name: `b${i}`, target: 'acme', kind: 'blog', objective: `Why workshops automate, part ${i}`, status, ...(status === 'failed' ? { failedAt: 'drafting' } : {}) };
        }),
      })),
      { name: 'keys', keys: Array.from({ length: 25 }, (_, k) => ({ name: `k${k}`, scopes: ['svc:read'], rateLimited: k > 0 })) },
    ],
  };
}

describe.skipIf(repeatRun)('a large scenario loaded over the control API', () => {
  it('leaves another client answered within 100 ms while it loads', { timeout: 180_000 }, async () => {
    const [loading, idle] = await Promise.all([startCli(), startCli()]);
    servers.push(loading, idle);
    for (const s of [loading, idle]) await timedHealthz(s.baseUrl); // connections set up
    const body = JSON.stringify(largeScenario(2));
    let done = false;
    const load = fetch(`${loading.baseUrl}/_sim/scenarios`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (res) => {
      const text = await res.text();
      done = true;
      assertContract({ method: 'POST', url: '/_sim/scenarios', status: res.status, headers: Object.fromEntries(res.headers), body: text });
      return { status: res.status, json: JSON.parse(text) };
    });
    const sampled = await sampleWhile(loading.baseUrl, idle.baseUrl, () => done);
    const loaded = await load;
    expect(loaded.status, JSON.stringify(loaded.json).slice(0, 500)).toBe(201);
    expect(Object.keys(loaded.json.accounts.keys.keys)).toHaveLength(25);
    const summary = describeSamples(sampled);
    console.log(`/healthz during a scenario load: ${summary}`);
    expectWithinBound(sampled, summary);
  });
});

/** A control call in-process, the deferred answer awaited as an adapter awaits it, checked against the contract. */
async function control(simulator: Simulator, url: string, body: unknown) {
  const first = simulator.handle({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(body)) }, { controlTrusted: true });
  const response = first.later ? await first.later : first;
  assertContract({ method: 'POST', url, status: response.status, headers: response.headers, body: response.body as string });
  return { status: response.status, json: JSON.parse(response.body as string) };
}

describe('scenarios loaded in slices, side by side with other control calls', () => {
  it('are loaded one after another: the same scenario twice gets two sets of accounts', async () => {
    const simulator = createSimulator({ onFault: () => {} });
    const [a, b] = await Promise.all([control(simulator, '/_sim/scenarios', shippedScenarios['full-library']), control(simulator, '/_sim/scenarios', shippedScenarios['full-library'])]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.accounts.user.accountId).not.toBe(b.json.accounts.user.accountId);
  });

  it('stop with 409 when the simulation is reset while they load, leaving nothing of them', async () => {
    const simulator = createSimulator({ onFault: () => {} });
    const loading = control(simulator, '/_sim/scenarios', largeScenario(1));
    // Once its account is being made (rehearsed, a hundred builds to go): other calls are answered meanwhile.
    const making = () => [...simulator.internal.store.accounts.values()].some((a) => a.name === 'busy-0');
    while (!making()) await new Promise((resolve) => setImmediate(resolve));
    expect((await control(simulator, '/_sim/reset', {})).status).toBe(200);
    const refused = await loading;
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('CONFLICT');
    expect(simulator.snapshot().accounts.map((a) => a.name)).not.toContain('busy-0');
  });
});
