/**
 * Fault rules reach MCP tool calls as they reach REST calls: the app performs a rule's
 * latency, drop and slow body once, for every adapter and for /mcp.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { createApp, type App } from '../../src/app/create-app.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

let simulator: Simulator;
let app: App;
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  simulator = createSimulator({ frozenAt: T0, publicUrl: base, onFault: () => {} });
  app = createApp(simulator);
  handler = createNodeHandler(app);
});
let handler: ReturnType<typeof createNodeHandler> = (_req, res) => void res.writeHead(503).end();

afterAll(async () => {
  await app.close();
  await new Promise((resolve) => server.close(resolve));
});

function toolCall(name: string): RequestInit {
  return {
    method: 'POST',
    headers: {
      authorization: `Bearer ${simulator.keys.readWrite}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name, arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  };
}

/** Adds a fault rule for one call of `operationId`, through the control API. */
async function rule(operationId: string, effect: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${base}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ operationId, times: 1, ...effect }) });
  const text = await res.text();
  assertContract({ method: 'POST', url: '/_sim/faults', status: res.status, headers: Object.fromEntries(res.headers), body: text });
  expect(res.status).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}

async function injectedIn(operationId: string): Promise<string | null> {
  const res = await fetch(`${base}/_sim/journal?operationId=${operationId}&limit=1`);
  const text = await res.text();
  assertContract({ method: 'GET', url: `/_sim/journal?operationId=${operationId}&limit=1`, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return (JSON.parse(text) as { data: Array<{ injected: string | null }> }).data[0]?.injected ?? null;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

describe('fault rules on an MCP tool call', () => {
  it('a latency rule makes the tool call answer late', async () => {
    const id = await rule('getTokenBalance', { latencyMs: 400 });
    const { value, ms } = await timed(async () => (await fetch(`${base}/mcp`, toolCall('getTokenBalance'))).json());
    expect(ms).toBeGreaterThanOrEqual(380);
    expect(value).toMatchObject({ result: { structuredContent: { balance: 100 } } });
    expect(await injectedIn('getTokenBalance')).toBe(id);
    // The rule was for one call: the next answers at once, with the same result.
    const again = await (await fetch(`${base}/mcp`, toolCall('getTokenBalance'))).json();
    expect(again).toMatchObject({ result: { structuredContent: { balance: 100 } } });
  });

  it('a drop rule cuts the connection that carried the tool call, over HTTP and in-process', async () => {
    await rule('listTargets', { drop: true });
    await expect(fetch(`${base}/mcp`, toolCall('listTargets'))).rejects.toThrow(TypeError);
    await rule('listTargets', { drop: true });
    const inProcess = await app.fetch(new Request(`${base}/mcp`, toolCall('listTargets')));
    expect(inProcess.type).toBe('error'); // a network error, as msw and a Fetch runtime report it
    const after = await (await fetch(`${base}/mcp`, toolCall('listTargets'))).json();
    expect(after).toMatchObject({ result: { structuredContent: { data: [] } } });
  });

  it('a slow-body rule makes the tool call answer when the last piece would have come', async () => {
    const id = await rule('getTokenBalance', { slowBody: { totalMs: 400, chunks: 4 } });
    const { value, ms } = await timed(async () => (await fetch(`${base}/mcp`, toolCall('getTokenBalance'))).json());
    expect(ms).toBeGreaterThanOrEqual(380);
    expect(value).toMatchObject({ result: { structuredContent: { balance: 100 } } });
    expect(await injectedIn('getTokenBalance')).toBe(id);
  });
});
