import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveFetch } from '../../src/adapters/fetch-bridge.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { FAILED_AUTH_LIMIT } from '../../src/limits/address-limiter.js';
import { createSimulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';
import { api, control, mcpCall, oauthRig, signedInClient, type OAuthRig } from '../oauth/support.js';

/**
 * Revocation ends access at the moment the operation runs, not when its request began: an
 * /mcp body held back while its key or its OAuth grant is revoked, or while the simulation
 * is reset, is refused when it finally arrives. And an assistant's grant can mint no key.
 */
let rig: OAuthRig;
beforeEach(async () => (rig = await oauthRig()));
afterEach(async () => rig.close());

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/**
 * A tool call whose body (over 64 KiB, so it streams in after authentication) is held back:
 * its headers and first half go now, the rest once `meanwhile` has run.
 */
function heldToolCall(bearer: string, name: string, args: Record<string, unknown>, meanwhile: () => Promise<void>): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args, _meta: { ...MODERN_META, pad: 'x'.repeat(100_000) } } });
  const url = new URL(`${rig.base}/mcp`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    // The server has the headers (and authenticated them) well before this.
    setTimeout(() => {
      meanwhile().then(() => req.end(body.slice(half)), reject);
    }, 200);
  });
}

/** The tool result of an answer, from its SSE event or its JSON body. */
function toolResult(text: string): { isError?: boolean; content: Array<{ text: string }>; structuredContent?: unknown } {
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data ? data.slice('data: '.length) : text).result;
}

async function newKey(name: string): Promise<{ id: string; value: string }> {
  const created = await api(rig.base, 'POST', '/api/v1/keys', rig.simulator.keys.readWrite, { name, scopes: ['svc:read', 'svc:write'] });
  expect(created.status).toBe(201);
  return created.body;
}

describe('revocation ends access now', () => {
  it('refuses a tool call whose key was revoked while its body was still arriving', async () => {
    const key = await newKey('held');
    const answer = await heldToolCall(key.value, 'createApiKey', { name: 'minted late', scopes: ['svc:read'] }, async () => {
      expect((await api(rig.base, 'DELETE', `/api/v1/keys/${key.id}`, rig.simulator.keys.readWrite)).status).toBe(200);
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'INVALID_API_KEY', details: { reason: 'revoked' } });
    const keys = await api(rig.base, 'GET', '/api/v1/keys?limit=100', rig.simulator.keys.readWrite);
    expect(keys.body.data.map((k: { name: string }) => k.name)).not.toContain('minted late');
  });

  it('refuses a tool call whose OAuth grant was revoked while its body was still arriving', async () => {
    const signed = await signedInClient(rig.base, rig.simulator.keys.readWrite);
    const grants = await api(rig.base, 'GET', '/api/v1/oauth/grants', rig.simulator.keys.readWrite);
    const grantId = grants.body.data[0].id as string;
    const answer = await heldToolCall(signed.tokens.access_token, 'createTarget', { name: 'Late', slug: 'late', description: 'd', brandKit: { voice: 'v', tone: 't' } }, async () => {
      expect((await api(rig.base, 'DELETE', `/api/v1/oauth/grants/${grantId}`, rig.simulator.keys.readWrite)).status).toBeLessThan(300);
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'INVALID_API_KEY' });
    const targets = await api(rig.base, 'GET', '/api/v1/targets', rig.simulator.keys.readWrite);
    expect(targets.body.data.map((t: { slug: string }) => t.slug)).not.toContain('late');
  });

  it('fails a tool call in flight across a reset rather than answer "created" for a write not kept', async () => {
    const answer = await heldToolCall(rig.simulator.keys.readWrite, 'createTarget', { name: 'Lost', slug: 'lost', description: 'd', brandKit: { voice: 'v', tone: 't' } }, async () => {
      expect((await control(rig.base, '/_sim/reset', {})).status).toBe(200);
    });
    const result = toolResult(answer.text);
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ code: 'INVALID_API_KEY', details: { reason: 'reset' } });
    const targets = await api(rig.base, 'GET', '/api/v1/targets', rig.simulator.keys.readWrite);
    expect(targets.body.data.map((t: { slug: string }) => t.slug)).not.toContain('lost');
  });
});

describe('an assistant cannot mint lasting credentials', () => {
  it('refuses createApiKey and rotateApiKey to an OAuth token (403), so nothing outlives the revoked grant', async () => {
    const signed = await signedInClient(rig.base, rig.simulator.keys.readWrite);
    const token = signed.tokens.access_token;
    const spare = await newKey('spare');
    for (const [name, args] of [
      ['createApiKey', { name: 'assistant key', scopes: ['svc:read', 'svc:write'] }],
      ['rotateApiKey', { keyId: spare.id }],
    ] as const) {
      const res = await mcpCall(rig.base, token, name, args);
      expect(res.status).toBe(200);
      const result = toolResult(await res.text());
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({ code: 'SCOPE_REQUIRED', details: { reason: 'api_key_required' } });
    }
    // The spare key was not rotated away, and no key was made: the account holds what it held.
    const keys = await api(rig.base, 'GET', '/api/v1/keys?limit=100', rig.simulator.keys.readWrite);
    expect(keys.body.data.find((k: { id: string }) => k.id === spare.id).revokedAt).toBeNull();
    expect(keys.body.data.map((k: { name: string }) => k.name)).not.toContain('assistant key');
    // What an assistant may still do with keys ends access, never extends it.
    const revoked = await mcpCall(rig.base, token, 'revokeApiKey', { keyId: spare.id });
    expect(toolResult(await revoked.text()).isError).toBeFalsy();
  });

  it('still lets an API key on /mcp create keys, as on REST', async () => {
    const res = await mcpCall(rig.base, rig.simulator.keys.readWrite, 'createApiKey', { name: 'headless', scopes: ['svc:read'] });
    const result = toolResult(await res.text());
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ name: 'headless' });
  });
});

describe('/mcp failed authentications', () => {
  it(`count in the address's guessing limit shared with REST: after ${FAILED_AUTH_LIMIT}, 429 on both`, async () => {
    const sim = createSimulator({ frozenAt: T0, onFault: () => {} });
    const app = createApp(sim);
    const attacker = { remoteAddress: '203.0.113.7' };
    const wrong = `svc_live_${'0'.repeat(40)}`;
    const post = (key: string) =>
      app.fetch(
        new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { host: '127.0.0.1', authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }),
        attacker,
      );
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect((await post(wrong)).status).toBe(401);
    const blocked = await post(sim.keys.readWrite);
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'address', limit: FAILED_AUTH_LIMIT } });
    const rest = await app.fetch(new Request('http://127.0.0.1/api/v1/tokens/balance', { headers: { authorization: `Bearer ${sim.keys.readWrite}` } }), attacker);
    const text = await rest.text();
    assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: rest.status, headers: Object.fromEntries(rest.headers), body: text });
    expect(rest.status).toBe(429);
    // Another address is not concerned.
    const other = await app.fetch(new Request('http://127.0.0.1/api/v1/tokens/balance', { headers: { authorization: `Bearer ${sim.keys.readWrite}` } }), { remoteAddress: '198.51.100.2' });
    expect(other.status).toBe(200);
    await app.close();
  });

  it('get the client address from the node:http bridge, which passes it along', async () => {
    const seen: Array<string | undefined> = [];
    const server = createServer((req, res) => void serveFetch(req, res, async (_request, client) => (seen.push(client.remoteAddress), new Response('ok'))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, { method: 'POST', body: '{}' });
    expect(await res.text()).toBe('ok');
    expect(seen).toEqual(['127.0.0.1']);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
