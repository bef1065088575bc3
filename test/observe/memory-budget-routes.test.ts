import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';

let server: Server | undefined;
let endpoint: McpEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  endpoint = undefined;
});

/** The CLI's stack (node:http, the MCP endpoint), with the budget filled as the memory gauge fills it. */
async function fullServer(): Promise<{ simulator: Simulator; base: string }> {
  const simulator = createSimulator({ onFault: () => {} });
  endpoint = createMcpEndpoint(simulator);
  server = createServer(createNodeHandler(simulator, { mcp: endpoint }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  simulator.internal.oauth.setListeningUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return { simulator, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function send(base: string, method: string, path: string, init: { body?: string; type?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(init.body !== undefined ? { 'content-type': init.type ?? 'application/json' } : {}), ...init.headers },
    body: init.body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('a used-up memory budget, on every route', () => {
  it('refuses what would store more on /oauth in RFC 6749\'s shape, on /_sim and /mcp in the spec\'s, and keeps probes, reads and resets answering', async () => {
    const { simulator, base } = await fullServer();
    const key = simulator.keys.readWrite;
    Object.assign(simulator.internal.capacity, { exceeded: true, usedMiB: 310, limitMiB: 300 });

    // OAuth: registration, sign-in and the token endpoint wait; metadata and revocation go on.
    const form = 'grant_type=refresh_token&refresh_token=sim_rt_x&client_id=content-sim-demo';
    for (const [path, body, type] of [
      ['/oauth/token', form, 'application/x-www-form-urlencoded'],
      ['/oauth/register', JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'] }), 'application/json'],
      ['/oauth/authorize', 'approve=1', 'application/x-www-form-urlencoded'],
    ] as const) {
      const refused = await send(base, 'POST', path, { body, type });
      expect(refused.status, path).toBe(503);
      expect(JSON.parse(refused.text)).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/310 of 300 MiB/) });
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.headers.get('cache-control')).toBe('no-store');
    }
    expect((await send(base, 'GET', '/.well-known/oauth-authorization-server')).status).toBe(200);
    expect((await send(base, 'POST', '/oauth/revoke', { body: 'token=sim_rt_unknown', type: 'application/x-www-form-urlencoded' })).status).not.toBe(503);

    // The control API: what stores more is refused; the live journal too (a feed holds a buffer).
    const controlCalls: Array<[string, string, string | undefined]> = [
      ['POST', '/_sim/faults', JSON.stringify({ path: '/api/v1/tokens', latencyMs: 1 })],
      ['POST', '/_sim/oauth/tokens', JSON.stringify({ apiKey: key })],
      ['POST', '/_sim/restore', JSON.stringify({})],
      ['POST', '/_sim/accounts', JSON.stringify({})],
      ['GET', '/_sim/journal/stream', undefined],
    ];
    for (const [method, path, body] of controlCalls) {
      const refused = await send(base, method, path, { body });
      assertContract({ method, url: path, status: refused.status, headers: Object.fromEntries(refused.headers), body: refused.text });
      expect([refused.status, JSON.parse(refused.text).code], path).toEqual([503, 'CAPACITY_EXCEEDED']);
    }
    for (const [method, path, body] of [['GET', '/healthz'], ['GET', '/readyz'], ['GET', '/_sim/journal'], ['POST', '/_sim/clock/advance', '{"ms":1}'], ['POST', '/_sim/reset', '{}']] as const) {
      const res = await send(base, method, path, { body });
      assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: res.text });
      expect(res.status, path).toBe(200);
    }

    // MCP: a new session or stream waits; the refusal is the spec's error body.
    const auth = { authorization: `Bearer ${simulator.keys.readWrite}`, accept: 'application/json, text/event-stream' };
    const initialize = await send(base, 'POST', '/mcp', {
      headers: auth,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(initialize.status).toBe(503);
    expect(JSON.parse(initialize.text)).toMatchObject({ code: 'CAPACITY_EXCEEDED', details: { usedMiB: 310, limitMiB: 300 } });
    expect(initialize.headers.get('retry-after')).toMatch(/^\d+$/);
    const stream = await send(base, 'GET', '/mcp', { headers: { ...auth, accept: 'text/event-stream' } });
    expect([stream.status, JSON.parse(stream.text).code]).toEqual([503, 'CAPACITY_EXCEEDED']);

    // Room again: everything goes through.
    Object.assign(simulator.internal.capacity, { exceeded: false });
    expect((await send(base, 'POST', '/_sim/faults', { body: JSON.stringify({ path: '/api/v1/tokens', latencyMs: 1 }) })).status).toBe(201);
    const opened = await send(base, 'POST', '/mcp', {
      headers: auth,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    expect(opened.status).toBe(200);
  });
});
