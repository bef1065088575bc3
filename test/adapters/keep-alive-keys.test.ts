import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';

/**
 * A keep-alive connection remembers the key it authenticated with, so a client that sends it
 * again is not looked up anew. What the client sees must not change: another key on the same
 * connection, a key revoked meanwhile, and a reset that replaces every key record are all
 * answered as on a fresh connection.
 */
describe('keys on a keep-alive connection', () => {
  let simulator: Simulator;
  let server: Server;
  let base: string;
  // One socket for every request, so each one follows the last on the same connection.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    simulator = createSimulator({ seed: 'keep-alive-keys', frozenAt: '2026-03-02T09:00:00Z' });
    server = createServer(createNodeHandler(simulator, { mcp: false }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const sockets = new Set<unknown>();
  function call(method: string, path: string, key?: string, body?: unknown): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (key) headers.authorization = `Bearer ${key}`;
      const text = body === undefined ? undefined : JSON.stringify(body);
      if (text !== undefined) headers['content-type'] = 'application/json';
      const req = request(`${base}${path}`, { method, agent, headers, timeout: 5000 }, (res) => {
        sockets.add(res.socket);
        let raw = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (raw += chunk));
        res.on('end', () => {
          assertContract({ method, url: path, status: res.statusCode!, headers: res.headers, body: raw });
          resolve({ status: res.statusCode!, body: raw ? JSON.parse(raw) : undefined });
        });
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(text);
    });
  }

  it('answers another key, a revoked key and a reset exactly as a fresh connection would', async () => {
    const { readWrite } = simulator.keys;
    expect((await call('GET', '/api/v1/keys', readWrite)).status).toBe(200);

    // Another key on the same connection: looked up, and refused.
    const unknown = `svc_live_${'0'.repeat(40)}`;
    const refused = await call('GET', '/api/v1/keys', unknown);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'INVALID_API_KEY', details: { reason: 'unknown' } });

    // The first key again, then revoked between two calls: the second one is refused.
    expect((await call('GET', '/api/v1/keys', readWrite)).status).toBe(200);
    const store = simulator.internal.store;
    store.revokeKey(store.findKey(readWrite)!, simulator.clock.now());
    const revoked = await call('GET', '/api/v1/keys', readWrite);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toMatchObject({ code: 'INVALID_API_KEY', details: { reason: 'revoked' } });

    // A reset seeds the same key values in new records: the revoked record remembered is not used.
    expect((await call('POST', '/_sim/reset', undefined, {})).status).toBe(200);
    expect((await call('GET', '/api/v1/keys', readWrite)).status).toBe(200);

    expect(sockets.size).toBe(1);
  });
});
