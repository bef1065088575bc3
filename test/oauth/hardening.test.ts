import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAILED_AUTH_LIMIT } from '../../src/limits/address-limiter.js';
import { OAUTH_CAPS } from '../../src/oauth/oauth-store.js';
import { MAX_CLIENTS, oauthClientProblem, UNUSED_CLIENT_MS } from '../../src/oauth/registration.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';
import { oauthRig, type OAuthRig } from './support.js';

/** The authorization server's smaller edges: each once a way to a 500, a redirect or a free guess. */
const encoder = new TextEncoder();
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

function call(simulator: Simulator, method: string, url: string, options: { address?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  let body: Uint8Array | undefined;
  if (options.form) (headers['content-type'] = 'application/x-www-form-urlencoded'), (body = encoder.encode(new URLSearchParams(options.form).toString()));
  if (options.json !== undefined) (headers['content-type'] = 'application/json'), (body = encoder.encode(JSON.stringify(options.json)));
  return simulator.handle({ method, url, headers, body, remoteAddress: options.address });
}

function register(simulator: Simulator, address: string, redirectUri = 'http://127.0.0.1:9/cb'): string {
  const res = call(simulator, 'POST', '/oauth/register', { address, json: { redirect_uris: [redirectUri] } });
  expect(res.status, String(res.body)).toBe(201);
  return JSON.parse(String(res.body)).client_id;
}

function authorizeQuery(clientId: string, redirectUri: string, over: Record<string, string> = {}): string {
  return new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, state: 's', code_challenge: CHALLENGE, code_challenge_method: 'S256', ...over }).toString();
}

describe('the /mcp Host header', () => {
  let rig: OAuthRig;
  beforeEach(async () => (rig = await oauthRig()));
  afterEach(async () => rig.close());

  it('Host: x@y (credentials, to a URL parser) is a 400, not a 500', async () => {
    const { port } = new URL(rig.base);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: 'x@y', 'content-type': 'application/json' } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: 'The Host header is not valid.', code: 'VALIDATION_ERROR', details: {} });
  });
});

describe('the authorization endpoint', () => {
  it('shows an invalid request of a client with an https redirect URI on a page, never redirecting there', () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const evil = 'https://evil.example/landing';
    const clientId = register(simulator, '203.0.113.1', evil);
    const cases: Record<string, string>[] = [{ response_type: 'token' }, { code_challenge_method: 'plain' }, { scope: 'admin' }, { state: 'x'.repeat(1025) }];
    for (const over of cases) {
      const res = call(simulator, 'GET', `/oauth/authorize?${authorizeQuery(clientId, evil, over)}`);
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    // A loopback redirect URI is on the user's own machine: its errors go back to the client.
    const loopback = register(simulator, '203.0.113.1');
    const res = call(simulator, 'GET', `/oauth/authorize?${authorizeQuery(loopback, 'http://127.0.0.1:9/cb', { response_type: 'token' })}`);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.location!).searchParams.get('error')).toBe('unsupported_response_type');
  });

  it('counts wrong keys typed on the sign-in page in the address’s failed authentications', () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const address = '203.0.113.2';
    const clientId = register(simulator, address);
    const page = call(simulator, 'GET', `/oauth/authorize?${authorizeQuery(clientId, 'http://127.0.0.1:9/cb')}`, { address });
    const html = String(page.body);
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)![1]!;
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    const post = (apiKey: string) =>
      call(simulator, 'POST', '/oauth/authorize', { address, headers: { cookie }, form: { request_id: field('request_id'), csrf_token: field('csrf_token'), api_key: apiKey, decision: 'approve' } });
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect(post(`svc_live_${String(i).padStart(40, '0')}`).status).toBe(401);
    const limited = post(simulator.keys.readWrite);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // The same budget as the service API's: a REST call from that address waits too.
    const rest = call(simulator, 'GET', '/api/v1/tokens/balance', { address, headers: { authorization: `Bearer ${simulator.keys.readWrite}` } });
    assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: rest.status, headers: rest.headers, body: String(rest.body) });
    expect(rest.status).toBe(429);
    simulator.clock.advance(60_000);
    expect(post(simulator.keys.readWrite).status).toBe(302);
  });
  it('answers a sign-in whose client expired while its page was open with a page, not a 500', () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const address = '203.0.113.3';
    const clientId = register(simulator, address);
    simulator.clock.advance(UNUSED_CLIENT_MS - 60_000);
    const page = call(simulator, 'GET', `/oauth/authorize?${authorizeQuery(clientId, 'http://127.0.0.1:9/cb')}`, { address });
    expect(page.status).toBe(200);
    const html = String(page.body);
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)![1]!;
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    simulator.clock.advance(2 * 60_000);
    // Any OAuth call sweeps: the never-used client is past its hour.
    call(simulator, 'POST', '/oauth/register', { address: '203.0.113.4', json: { redirect_uris: ['http://127.0.0.1:9/other'] } });
    expect(simulator.internal.oauth.store.clients.has(clientId)).toBe(false);
    const res = call(simulator, 'POST', '/oauth/authorize', { address, headers: { cookie }, form: { request_id: field('request_id'), csrf_token: field('csrf_token'), api_key: simulator.keys.readWrite, decision: 'approve' } });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(String(res.body)).toMatch(/no longer registered/);
  });
});

describe('registration', () => {
  it('holds at most MAX_CLIENTS: the oldest never-used client gives way, a used one stays; unused ones expire', () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const { clients } = simulator.internal.oauth.store;
    const ids = Array.from({ length: MAX_CLIENTS }, (_, i) => register(simulator, `198.51.${Math.floor(i / 20)}.1`));
    const used = ids[1]!;
    const minted = call(simulator, 'POST', '/_sim/oauth/tokens', { json: { apiKey: simulator.keys.readWrite, clientId: used } });
    expect(minted.status).toBe(201);
    const newest = register(simulator, '198.51.200.1');
    expect(clients.size).toBe(MAX_CLIENTS + 1); // the demo client besides
    expect(clients.has(ids[0]!)).toBe(false);
    expect(clients.has(used)).toBe(true);
    expect(clients.has(newest)).toBe(true);

    simulator.clock.advance(UNUSED_CLIENT_MS);
    register(simulator, '198.51.201.1');
    expect([...clients.keys()].sort()).toEqual(expect.arrayContaining(['content-sim-demo', used]));
    expect(clients.size).toBe(3); // the demo client, the used one, the one just registered
  });

  it('judges a restored client record by the registration rules', () => {
    const sound = { clientId: `client_${'a'.repeat(43)}`, clientName: 'App', redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8080/cb'], issuedAt: 0 };
    expect(oauthClientProblem(sound)).toBeNull();
    expect(oauthClientProblem({ ...sound, clientId: 'content-sim-demo' })).toBeNull();
    expect(oauthClientProblem({ ...sound, redirectUris: ['javascript:alert(1)'] })).toMatch(/javascript/);
    expect(oauthClientProblem({ ...sound, redirectUris: ['not a url'] })).toMatch(/absolute URL/);
    expect(oauthClientProblem({ ...sound, redirectUris: ['http://evil.example/cb'] })).toMatch(/https/);
    expect(oauthClientProblem({ ...sound, redirectUris: [] })).toMatch(/one to 10/);
    expect(oauthClientProblem({ ...sound, clientId: '../x' })).toMatch(/clientId/);
    expect(oauthClientProblem({ ...sound, clientName: '' })).toMatch(/clientName/);
    expect(oauthClientProblem(null)).toMatch(/object/);
  });
});

describe('the OAuth tables', () => {
  it('are each capped, and a flood of sign-in links keeps only the newest', () => {
    const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
    const { store } = simulator.internal.oauth;
    for (const name of ['pending', 'codes', 'grants', 'accessTokens', 'refreshTokens'] as const) expect(store[name].capacity, name).toBe(OAUTH_CAPS[name]);
    const clientId = register(simulator, '203.0.113.3');
    for (let i = 0; i < OAUTH_CAPS.pending + 10; i++) call(simulator, 'GET', `/oauth/authorize?${authorizeQuery(clientId, 'http://127.0.0.1:9/cb')}`);
    expect(store.pending.size).toBe(OAUTH_CAPS.pending);
  });
});
