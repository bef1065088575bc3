import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { mcpRig, type McpRig } from './support.js';

let rig: McpRig;
afterEach(async () => rig.close());

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${rig.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

describe('MCP: authentication', () => {
  beforeEach(async () => (rig = await mcpRig()));

  it('401 with a Bearer challenge without a credential, with an unknown or a revoked key', async () => {
    const none = await post(INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(
      `Bearer realm="content-service", scope="svc:read svc:write", resource_metadata="${rig.simulator.internal.oauth.resourceMetadataUrl}"`,
    );
    expect(await none.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    for (const key of [`svc_live_${'0'.repeat(40)}`, rig.simulator.keys.revoked, 'not-a-key']) {
      const res = await post(INITIALIZE, { Authorization: `Bearer ${key}` });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="content-service", error="invalid_token", resource_metadata="[^"]+"$/);
    }
  });

  it('refuses a tool whose scope an API key lacks with an isError result: the REST 403 SCOPE_REQUIRED', async () => {
    // An API key cannot step up to a wider scope (only an OAuth client can: see test/oauth), so
    // the refusal is a tool error the model reads, not an HTTP 403 every SDK client throws on.
    const { keys } = rig.simulator;
    const reader = await rig.client(keys.readOnly);
    const write = (await reader.callTool({ name: 'createTarget', arguments: { name: 'x' } })) as { isError?: boolean; structuredContent?: unknown; content: { text: string }[] };
    expect(write.isError).toBe(true);
    expect(write.structuredContent).toBeUndefined();
    expect(JSON.parse(write.content[0]!.text)).toMatchObject({ code: 'SCOPE_REQUIRED', details: { requiredScope: 'svc:write', grantedScopes: ['svc:read'] } });
    const writer = await rig.client(keys.writeOnly);
    const read = (await writer.callTool({ name: 'waitForBuild', arguments: { buildId: '00000000-0000-4000-8000-000000000000' } })) as { isError?: boolean; content: { text: string }[] };
    expect(JSON.parse(read.content[0]!.text)).toMatchObject({ code: 'SCOPE_REQUIRED', details: { requiredScope: 'svc:read' } });
    // A tool within the key's scopes goes through.
    expect(((await reader.callTool({ name: 'getTokenBalance', arguments: {} })) as { isError?: boolean }).isError).toBeFalsy();
  });

  it('refuses a foreign Host or Origin with 403 (DNS rebinding)', async () => {
    const auth = { Authorization: `Bearer ${rig.simulator.keys.readWrite}` };
    expect((await post(INITIALIZE, { ...auth, Origin: 'http://evil.example' })).status).toBe(403);
    const res = await post(INITIALIZE, { ...auth, Origin: 'http://localhost:3000' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('binds a session to its account: another account’s key is told it does not exist', async () => {
    const init = await post(INITIALIZE, { Authorization: `Bearer ${rig.simulator.keys.readWrite}` });
    const session = init.headers.get('mcp-session-id')!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const other = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { Authorization: `Bearer ${rig.simulator.keys.emptyAccount}`, 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' });
    expect(other.status).toBe(404);
  });

  it('serves in-process over the SDK’s in-memory transport, for the same credentials', async () => {
    const client = new Client({ name: 'in-process', version: '1' });
    await client.connect(await rig.endpoint.connect(rig.simulator.keys.readWrite));
    const tools = await client.listTools();
    expect(tools.tools.some((t) => t.name === 'getBuild')).toBe(true);
    await expect(rig.endpoint.connect(rig.simulator.keys.revoked)).rejects.toThrow(/revoked/);
    // The credential is checked on every call: a key revoked mid-connection stops working.
    const { internal: sim } = rig.simulator;
    sim.store.revokeKey(sim.store.findKey(rig.simulator.keys.readWrite)!, rig.simulator.clock.now());
    await expect(client.callTool({ name: 'getTokenBalance', arguments: {} })).rejects.toThrow(/revoked/);
    await client.close();
  });
});

describe('MCP: rate limits are the REST limits', () => {
  it('counts tool calls and REST calls of one account in the same per-user bucket', async () => {
    rig = await mcpRig({ rateLimits: { perUser: 5 } });
    const { keys } = rig.simulator;
    const res = await fetch(`${rig.baseUrl}/api/v1/tokens/balance`, { headers: { Authorization: `Bearer ${keys.readWrite}` } });
    expect(res.status).toBe(200);
    const client = await rig.client(keys.readOnly); // its initialize and its initialized notification count as a request each
    for (let i = 0; i < 2; i++) expect(((await client.callTool({ name: 'getTokenBalance', arguments: {} })) as { isError?: boolean }).isError).toBeFalsy();
    const limited = (await client.callTool({ name: 'getTokenBalance', arguments: {} })) as { isError?: boolean; structuredContent?: unknown; content: { text: string }[] };
    expect(limited).toMatchObject({ isError: true });
    expect(limited.structuredContent).toBeUndefined();
    const error = JSON.parse(limited.content[0]!.text);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'user', limit: 5 } });
    expect(error.details.retryAfterSeconds).toBeGreaterThan(0);
    const rest = await fetch(`${rig.baseUrl}/api/v1/tokens/balance`, { headers: { Authorization: `Bearer ${keys.readWrite}` } });
    expect(rest.status).toBe(429);
  });
});
