import { afterEach, describe, expect, it } from 'vitest';
import { createMcpHandler, isLegacyRequest, Server } from '@modelcontextprotocol/server';
import { ServerPool } from '../../src/mcp/server-pool.js';
import { claimsModernEra } from '../../src/mcp/stateless-route.js';
import { mcpRig, type McpRig } from './support.js';

/**
 * Stateless (2026-07-28) calls are served by reused server instances: each call must still be
 * its own caller's, whatever instance serves it, and the cheap era check must never send to
 * the modern path what the SDK would route to the 2025 one.
 */
const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };

function toolCall(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } };
}

function statelessHeaders(credential: string, name: string): Record<string, string> {
  return { authorization: `Bearer ${credential}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': name };
}

interface CallResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text: string }[];
}

let rig: McpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('MCP stateless calls on reused servers', () => {
  it('answers each concurrent call for its own credential: account and scopes never cross', async () => {
    rig = await mcpRig();
    const { keys } = rig.simulator;
    const balanceOf = async (key: string) => {
      const res = await fetch(`${rig!.baseUrl}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      return res.json();
    };
    const [full, empty] = [await balanceOf(keys.readWrite), await balanceOf(keys.emptyAccount)];
    expect(full).not.toEqual(empty);

    // Four callers interleaved, 10 rounds at once: far more calls than idle servers, so instances serve several callers.
    const callers = [
      { key: keys.readWrite, expect: { structuredContent: full } },
      { key: keys.emptyAccount, expect: { structuredContent: empty } },
      { key: keys.readOnly, expect: { structuredContent: full } },
      { key: keys.writeOnly, expect: { isError: true, code: 'SCOPE_REQUIRED' } },
    ];
    for (let round = 0; round < 3; round++) {
      const calls = Array.from({ length: 40 }, (_, i) => callers[i % callers.length]!);
      const answers = await Promise.all(
        calls.map(async (caller, i) => {
          const res = await fetch(`${rig!.baseUrl}/mcp`, { method: 'POST', headers: statelessHeaders(caller.key, 'getTokenBalance'), body: JSON.stringify(toolCall(i + 1, 'getTokenBalance')) });
          expect(res.status).toBe(200);
          const message = (await res.json()) as { id: number; result: CallResult };
          expect(message.id).toBe(i + 1);
          return message.result;
        }),
      );
      answers.forEach((result, i) => {
        const wanted = calls[i]!.expect;
        if ('code' in wanted) {
          expect(result.isError).toBe(true);
          expect(JSON.parse(result.content[0]!.text)).toMatchObject({ code: wanted.code, details: { requiredScope: 'svc:read' } });
        } else {
          expect(result.isError).toBeFalsy();
          expect(result.structuredContent).toEqual(wanted.structuredContent);
        }
      });
    }
  });
});

describe('ServerPool', () => {
  function countingHandler() {
    let built = 0;
    const pool = new ServerPool(() => {
      built++;
      const server = new Server({ name: 'pool-test', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/call', (request) => ({ content: [{ type: 'text', text: String(request.params.name) }] }));
      return server;
    }, 4);
    const handler = createMcpHandler(() => pool.take(), { legacy: 'reject' });
    const call = async (id: number) => {
      const name = `tool${id}`;
      const res = await handler.fetch(
        new Request('http://localhost/mcp', { method: 'POST', headers: { ...statelessHeaders('x', name) }, body: JSON.stringify(toolCall(id, name)) }),
      );
      expect(res.status).toBe(200);
      expect(((await res.json()) as { result: CallResult }).result.content[0]!.text).toBe(name);
    };
    return { pool, handler, call, built: () => built };
  }

  it('builds a server only when none is idle, and keeps at most maxIdle', async () => {
    const { pool, handler, call, built } = countingHandler();
    for (let i = 1; i <= 20; i++) await call(i);
    expect(built()).toBe(1);
    expect(pool.idleCount).toBe(1);
    await Promise.all(Array.from({ length: 10 }, (_, i) => call(100 + i)));
    expect(built()).toBeGreaterThan(1);
    expect(built()).toBeLessThanOrEqual(11);
    expect(pool.idleCount).toBeLessThanOrEqual(4);
    const before = built();
    for (let i = 1; i <= 10; i++) await call(200 + i);
    expect(built()).toBe(before);
    await handler.close();
  });
});

describe('claimsModernEra', () => {
  const claim = { _meta: META };
  const bodies: [string, unknown][] = [
    ['a tools/call with the claim', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', ...claim } }],
    ['a claim naming an unserved version', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } }],
    ['a claim with a malformed envelope', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 7 } } }],
    ['a notification with the claim', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, ...claim } }],
    ['not JSON-RPC at all, with the claim', { method: 'tools/list', params: claim }],
    ['an initialize with the claim', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' }, ...claim } }],
    ['an initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }],
    ['a 2025-era call', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['a posted result with the claim', { jsonrpc: '2.0', id: 1, result: {}, method: 'tools/list', params: claim }],
    ['a posted error', { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: claim }]],
    ['a claim under params that are not an object', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [claim] }],
    ['null', null],
  ];

  it.each(bodies)('never says modern where the SDK routes to the 2025 era: %s', async (_, body) => {
    const request = () => new Request('http://localhost/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const legacy = await isLegacyRequest(request(), body);
    if (claimsModernEra(body)) expect(legacy).toBe(false);
  });

  it('says modern for the plain stateless call, and not for initialize, a 2025-era call or a batch', () => {
    const verdicts = Object.fromEntries(bodies.map(([name, body]) => [name, claimsModernEra(body)]));
    expect(verdicts).toMatchObject({
      'a tools/call with the claim': true,
      'a claim naming an unserved version': true,
      'a notification with the claim': true,
      'an initialize with the claim': false,
      'an initialize': false,
      'a 2025-era call': false,
      'a posted result with the claim': false,
      'a batch': false,
    });
  });
});
