import { afterAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/simulator.js';
import { startCli, type CliServer } from '../support/cli-server.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

/** Probes a CI service container or an orchestrator waits on: no key, no limit, no guard. */
function probe(sim: ReturnType<typeof createSimulator>, url: string, remoteAddress?: string) {
  const res = sim.handle({ method: 'GET', url, headers: {}, ...(remoteAddress ? { remoteAddress } : {}) });
  const body = typeof res.body === 'string' ? res.body : '';
  assertContract({ method: 'GET', url, status: res.status, headers: res.headers, body });
  return { ...res, json: JSON.parse(body) };
}

describe('health probes', () => {
  it('answer without a key, from any address, never rate-limited, with no CORS', () => {
    const sim = createSimulator({ frozenAt: T0, rateLimits: { perUser: 1, perKey: { default: 1 } } });
    for (let i = 0; i < 200; i++) {
      const live = probe(sim, '/healthz', '203.0.113.9');
      expect(live.status).toBe(200);
      expect(live.json).toEqual({ status: 'ok', version: sim.internal.version });
      expect(live.headers['x-ratelimit-limit']).toBeUndefined();
      expect(live.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(probe(sim, '/readyz').json.status).toBe('ready');
  });

  it('turn /readyz to 503 once the server is stopping, while /healthz stays 200', () => {
    const sim = createSimulator({ frozenAt: T0 });
    sim.internal.ready = false;
    const ready = probe(sim, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json.status).toBe('stopping');
    expect(ready.headers['retry-after']).toBe('1');
    expect(probe(sim, '/healthz').status).toBe(200);
  });

  it('are served by the CLI with --no-control, which switches /_sim off', async () => {
    const server: CliServer = await startCli(['--no-control']);
    servers.push(server);
    const get = async (path: string) => {
      const res = await fetch(`${server.baseUrl}${path}`);
      const body = await res.text();
      assertContract({ method: 'GET', url: path, status: res.status, headers: Object.fromEntries(res.headers), body });
      return res.status;
    };
    expect(await get('/healthz')).toBe(200);
    expect(await get('/readyz')).toBe(200);
    expect(await get('/_sim')).toBe(404);
  });
});

const servers: CliServer[] = [];
afterAll(() => servers.forEach((s) => s.stop()));
