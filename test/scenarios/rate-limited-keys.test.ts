/**
 * A scenario's rate-limited key has spent its window: its next call is 429 until the window
 * ends, on a server started with --no-rate-limits as on any other, and the account's other
 * keys keep theirs. The window is spent in the limiter at once, not by calling until refused,
 * so a scenario of many such keys costs what its keys cost.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { UNLIMITED } from '../../src/cli/options.js';
import { assertContract } from '../support/contract.js';

afterEach(() => vi.restoreAllMocks());

function balance(simulator: Simulator, key: string) {
  const response = simulator.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: `Bearer ${key}` } });
  assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: response.status, headers: response.headers, body: response.body as string });
  return response;
}

const scenario = (keys: number) => ({
  scenario: 'busy-keys',
  accounts: [
    {
      name: 'user',
      keys: [
        ...Array.from({ length: keys }, (_, i) => ({ name: `limited-${i}`, scopes: ['svc:read', 'svc:write'], rateLimited: true })),
        { name: 'spare', scopes: ['svc:read'] },
      ],
    },
  ],
});

describe("a scenario's rate-limited key", () => {
  it.each([
    ['the default limits', {}],
    ['--no-rate-limits', { rateLimits: UNLIMITED }],
  ])('is limited with %s, until its window ends; the spare key is not', (_, options) => {
    const simulator = createSimulator({ onFault: () => {}, frozenAt: '2026-01-05T09:00:00.000Z', ...options });
    const loaded = simulator.loadScenario(scenario(1));
    const { keys } = loaded.accounts.user!;
    const refused = balance(simulator, keys['limited-0']!);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body as string).code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(balance(simulator, keys.spare!).status).toBe(200);
    // The account's clock is frozen at its stated now: moved a minute, the window has ended.
    expect(simulator.handle({ method: 'POST', url: `/_sim/accounts/${loaded.accounts.user!.accountId}/clock/advance`, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"ms":60000}') }, { controlTrusted: true }).status).toBe(200);
    expect(balance(simulator, keys['limited-0']!).status).toBe(200);
  });

  it('costs no request of its own: 24 spent keys are made with about as many calls as 24 keys', () => {
    const simulator = createSimulator({ onFault: () => {} });
    const calls = vi.spyOn(Engine.prototype, 'handle');
    simulator.loadScenario(scenario(24));
    // A key is made with one call (and checked with none): calling each until refused took 61 apiece.
    expect(calls.mock.calls.length).toBeLessThan(40);
  });
});
