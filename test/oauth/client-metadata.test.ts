import * as oauth from 'oauth4webapi';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientMetadataFetcher, forbiddenAddress } from '../../src/adapters/client-metadata-fetch.js';
import { createExpressApp } from '../../src/adapters/express.js';
import { createMcpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { T0 } from '../support/harness.js';
import { mcpCall, signIn } from './support.js';

/**
 * Sign-in with a client ID metadata document: the client's `client_id` is the URL of its
 * metadata, which the authorization server fetches and checks. Documents are served here on
 * loopback, which the server accepts only with its local-testing option.
 */
const insecure = { [oauth.allowInsecureRequests]: true };
const REDIRECT = 'http://127.0.0.1:9/callback';

let simulator: Simulator;
let server: Server;
let documents: Server;
let base: string;
let docs: string;

/** What the document server answers at each path. */
const routes: Record<string, (url: string) => { status: number; headers: Record<string, string>; body: string }> = {
  '/client.json': (url) => json({ client_id: url, client_name: 'Metadata assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }),
  '/big.json': (url) => json({ client_id: url, client_name: 'x'.repeat(6_000), redirect_uris: [REDIRECT] }),
  '/moved.json': () => ({ status: 302, headers: { location: `${docs}/client.json` }, body: '' }),
  '/other.json': () => json({ client_id: `${docs}/client.json`, client_name: 'Impostor', redirect_uris: [REDIRECT] }),
};
let fetches = 0;

function json(body: unknown) {
  return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'max-age=300' }, body: JSON.stringify(body) };
}

async function listen(s: Server): Promise<string> {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

beforeEach(async () => {
  fetches = 0;
  documents = createServer((req, res) => {
    fetches++;
    const route = routes[req.url ?? ''];
    const answer = route ? route(`${docs}${req.url}`) : { status: 404, headers: {}, body: '' };
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  docs = await listen(documents);
  simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
  server = createServer(createExpressApp(simulator, { mcp: createMcpEndpoint(simulator, { pollMs: 20 }), metadataDocumentsOnLoopback: true }));
  base = await listen(server);
  simulator.internal.oauth.setListeningUrl(base);
});

afterEach(async () => {
  for (const s of [server, documents]) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function discover() {
  const issuer = new URL(base);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }));
}

async function startSignIn(as: oauth.AuthorizationServer, clientId: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'svc:read', state, resource: `${base}/mcp`, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { url: url.href, verifier, state };
}

describe('OAuth sign-in with a client ID metadata document', () => {
  it('says it is supported, fetches the document once (cached by its headers), signs in and calls a tool', async () => {
    const as = await discover();
    expect(as.client_id_metadata_document_supported).toBe(true);
    const client: oauth.Client = { client_id: `${docs}/client.json`, token_endpoint_auth_method: 'none' };
    const { url, verifier, state } = await startSignIn(as, client.client_id);
    const answer = await signIn(url, simulator.keys.readWrite);
    expect(answer.status).toBe(302);
    expect(answer.html).not.toMatch(/refused/);
    const params = oauth.validateAuthResponse(as, client, new URL(answer.location!), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, { ...insecure, additionalParameters: { resource: `${base}/mcp` } }),
    );
    expect(tokens.scope).toBe('svc:read');
    expect(fetches).toBe(1); // the token request used the cached copy (max-age=300)

    const call = await mcpCall(base, tokens.access_token);
    expect(call.status).toBe(200);
    expect((await call.json()).result.structuredContent).toEqual({ balance: 100, lifetimePurchased: 100, lifetimeUsed: 0 });
    // A snapshot with a metadata-document client restores.
    expect(() => simulator.restore(simulator.snapshot())).not.toThrow();
  });

  it.each([
    ['an oversized document', '/big.json', /larger than 5120 bytes/],
    ['a redirect', '/moved.json', /redirect \(HTTP 302/],
    ['a document naming another client_id', '/other.json', /names client_id \S+\/client\.json\S*, not its own URL/],
  ])('refuses %s with an OAuth error', async (_what, path, reason) => {
    const as = await discover();
    const clientId = `${docs}${path}`;
    const { url } = await startSignIn(as, clientId);
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull(); // never sent to an unchecked redirect URI
    const html = await page.text();
    expect(html).toContain('invalid_client');
    expect(html).toMatch(reason);

    // The token endpoint says the same in RFC 6749's shape.
    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code: 'sim_ac_x', redirect_uri: REDIRECT, code_verifier: 'v'.repeat(43) }),
    });
    expect(token.status).toBe(401);
    const body = await token.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body.error).toBe('invalid_client');
    expect(body.error_description).toMatch(reason);
  });

  it('refuses http and private addresses without the local-testing option', async () => {
    const strict = clientMetadataFetcher();
    await expect(strict(new URL(`${docs}/client.json`))).rejects.toMatchObject({ code: 'invalid_client', description: expect.stringMatching(/loopback address/) });
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '127.0.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1', '100.64.0.1', '0.0.0.0']) {
      expect(forbiddenAddress(address, false), address).not.toBeNull();
    }
    expect(forbiddenAddress('127.0.0.1', true)).toBeNull();
    expect(forbiddenAddress('93.184.215.14', false)).toBeNull();
    // With the option off, the server refuses a plain-http client_id before fetching anything.
    const plain = createSimulator({ frozenAt: T0, onFault: () => {} });
    const strictServer = createServer(createExpressApp(plain, { mcp: false }));
    const strictBase = await listen(strictServer);
    const before = fetches;
    const page = await fetch(`${strictBase}/oauth/authorize?response_type=code&client_id=${encodeURIComponent(`${docs}/client.json`)}&redirect_uri=${encodeURIComponent(REDIRECT)}`, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/must be https/);
    expect(fetches).toBe(before);
    strictServer.closeAllConnections();
    await new Promise<void>((resolve) => strictServer.close(() => resolve()));
  });
});
