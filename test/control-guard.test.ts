import { describe, expect, it } from 'vitest';
import { createSimulator } from '../src/simulator.js';
import type { EngineRequest } from '../src/engine/types.js';
import { assertContract } from './support/contract.js';
import { harness, T0 } from './support/harness.js';

/** Who may drive the simulator through /_sim, checked on the engine with the client's address. */
function control(options: { controlToken?: string } = {}) {
  const simulator = createSimulator({ frozenAt: T0, onFault: () => {}, ...options });
  return (request: Partial<EngineRequest> & { url: string }) => {
    const response = simulator.handle({ method: 'GET', headers: {}, ...request });
    const body = typeof response.body === 'string' ? response.body : '';
    assertContract({ method: request.method ?? 'GET', url: request.url, status: response.status, headers: response.headers, body });
    return { ...response, json: body ? JSON.parse(body) : undefined };
  };
}

const ADVANCE = { method: 'POST', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"seconds":60}') };

describe('the control API is guarded', () => {
  it('answers loopback clients (and in-process callers), refuses others with 403', () => {
    const handle = control();
    expect(handle({ url: '/_sim/clock', remoteAddress: '127.0.0.1' }).status).toBe(200);
    expect(handle({ url: '/_sim/clock', remoteAddress: '::ffff:127.0.0.1' }).status).toBe(200);
    expect(handle({ url: '/_sim/clock' }).status).toBe(200);
    const remote = handle({ url: '/_sim/clock/advance', remoteAddress: '192.0.2.7', ...ADVANCE });
    expect(remote.status).toBe(403);
    expect(remote.json.code).toBe('FORBIDDEN');
    expect(handle({ url: '/_sim/clock' }).json.nowMs).toBe(T0); // nothing changed
  });

  it('with a control token, requires it from everyone, compared in full', () => {
    const token = 'a-control-token-of-some-length';
    const handle = control({ controlToken: token });
    expect(handle({ url: '/_sim/clock', remoteAddress: '127.0.0.1' }).status).toBe(401);
    expect(handle({ url: '/_sim/clock', headers: { 'x-control-token': token.slice(0, -1) } }).status).toBe(401);
    expect(handle({ url: '/_sim/clock', remoteAddress: '192.0.2.7', headers: { 'x-control-token': token } }).status).toBe(200);
  });

  it('is never CORS-open: no Access-Control-Allow-Origin, preflights refused; the service API stays open', () => {
    const handle = control();
    const preflight = handle({ method: 'OPTIONS', url: '/_sim/clock/freeze', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(handle({ url: '/_sim/clock' }).headers['access-control-allow-origin']).toBeUndefined();
    expect(handle({ method: 'OPTIONS', url: '/api/v1/builds' }).headers['access-control-allow-origin']).toBe('*');
  });

  it('takes JSON writes only, so a form or a body-less "simple" request from a page cannot drive it', () => {
    const handle = control();
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }]) {
      const res = handle({ ...ADVANCE, url: '/_sim/clock/advance', headers });
      expect(res.status).toBe(415);
    }
    expect(handle({ url: '/_sim/clock' }).json.nowMs).toBe(T0);
    expect(handle({ url: '/_sim/clock/advance', ...ADVANCE }).json.nowMs).toBe(T0 + 60_000);
  });

  it('answers only requests addressed to this machine by name (Host), so a rebound domain cannot reach it', () => {
    const handle = control();
    const from = (host: string) => handle({ url: '/_sim/clock/advance', remoteAddress: '127.0.0.1', ...ADVANCE, headers: { ...ADVANCE.headers, host } });
    const rebound = from('attacker.example:4010');
    expect(rebound.status).toBe(403);
    expect(rebound.json.error).toMatch(/not to attacker\.example:4010/);
    expect(from('127.0.0.1.attacker.example').status).toBe(403);
    expect(handle({ url: '/_sim/clock' }).json.nowMs).toBe(T0); // nothing changed
    for (const host of ['127.0.0.1:4010', 'localhost:4010', 'LOCALHOST', '[::1]:4010', 'sim.localhost:4010']) expect(from(host).status, host).toBe(200);
    // The simulator's own public name (--public-url) is its own.
    const simulator = createSimulator({ frozenAt: T0, publicUrl: 'https://sim.example.com' });
    const own = simulator.handle({ method: 'GET', url: '/_sim/clock', headers: { host: 'sim.example.com' }, remoteAddress: '127.0.0.1' });
    expect(own.status).toBe(200);
  });

  it('still serves the harness over a real socket from loopback', async () => {
    const h = harness();
    expect((await h.post('/_sim/accounts', { balance: 1 }, { key: null })).status).toBe(201);
  });
});
