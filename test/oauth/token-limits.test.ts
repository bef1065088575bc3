import { describe, expect, it } from 'vitest';
import { TOKEN_CALLS_PER_ADDRESS, TOKEN_CALLS_PER_CLIENT } from '../../src/oauth/authorization-server.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { T0 } from '../support/harness.js';

/**
 * The token endpoint counts per client address and per registered client from an address,
 * never under a client_id the caller makes up: a flood of invented ids, or of junk naming a
 * real client from elsewhere, leaves that client's minute whole, and the tables bounded.
 */
const REAL = '198.51.100.7';
const ATTACKER = '203.0.113.9';
const encoder = new TextEncoder();

function token(simulator: Simulator, address: string, form: Record<string, string>) {
  const response = simulator.handle({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: encoder.encode(new URLSearchParams(form).toString()),
    remoteAddress: address,
  });
  return { status: response.status, body: JSON.parse(String(response.body)) as Record<string, string>, headers: response.headers };
}

function mintDemoTokens(simulator: Simulator): { refresh_token: string } {
  const minted = simulator.handle({
    method: 'POST',
    url: '/_sim/oauth/tokens',
    headers: { 'content-type': 'application/json' },
    body: encoder.encode(JSON.stringify({ apiKey: simulator.keys.readWrite })),
  });
  expect(minted.status).toBe(201);
  return JSON.parse(String(minted.body));
}

describe('the token endpoint’s limits', () => {
  it('a flood of invented client_ids, and junk naming a real client, leave the real client’s minute whole', () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const server = simulator.internal.oauth as unknown as Record<'tokenCallsByAddress' | 'tokenCallsByClient', { size: number }>;
    let tokens = mintDemoTokens(simulator);

    // 61 junk refreshes naming the demo client, then 10,002 invented client_ids (some of 64 KiB).
    const junk = Array.from({ length: 61 }, () => token(simulator, ATTACKER, { grant_type: 'refresh_token', client_id: 'content-sim-demo', refresh_token: 'sim_rt_junk' }).status);
    expect(junk.slice(0, TOKEN_CALLS_PER_CLIENT)).toEqual(Array(TOKEN_CALLS_PER_CLIENT).fill(400));
    expect(junk.at(-1)).toBe(429);
    for (let i = 0; i < 10_002; i++) {
      const clientId = i % 100 === 0 ? `big-${i}-${'x'.repeat(65_536)}` : `invented-${i}`;
      token(simulator, `203.0.${Math.floor(i / 250)}.${i % 250}`, { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'sim_rt_junk' });
    }
    // Nothing was kept under an invented name: one entry per address, one per (real client, address).
    expect(server.tokenCallsByClient.size).toBe(1);
    expect(server.tokenCallsByAddress.size).toBeLessThanOrEqual(10_000);

    // The real client, from its own address, still has its whole minute: 60 calls, then 429.
    for (let i = 0; i < TOKEN_CALLS_PER_CLIENT; i++) {
      const answer = token(simulator, REAL, { grant_type: 'refresh_token', client_id: 'content-sim-demo', refresh_token: tokens.refresh_token });
      expect(answer.status, `call ${i + 1}`).toBe(200);
      tokens = answer.body as { refresh_token: string };
    }
    const limited = token(simulator, REAL, { grant_type: 'refresh_token', client_id: 'content-sim-demo', refresh_token: tokens.refresh_token });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('slow_down');
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('an address gets its own minute whatever the client_ids it names, then a new one', () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const statuses = Array.from({ length: TOKEN_CALLS_PER_ADDRESS + 1 }, (_, i) => token(simulator, ATTACKER, { grant_type: 'refresh_token', client_id: `invented-${i}`, refresh_token: 'x' }).status);
    expect(statuses.slice(0, TOKEN_CALLS_PER_ADDRESS).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(token(simulator, REAL, { grant_type: 'refresh_token', client_id: 'invented', refresh_token: 'x' }).status).toBe(401);
    simulator.clock.advance(60_000);
    expect(token(simulator, ATTACKER, { grant_type: 'refresh_token', client_id: 'invented', refresh_token: 'x' }).status).toBe(401);
  });
});
