import * as oauth from 'oauth4webapi';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressApp } from '../../src/adapters/express.js';
import { createMcpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

/** The simulator on a loopback port, its OAuth issuer set to the address it listens on. */
export interface OAuthRig {
  simulator: Simulator;
  base: string;
  close(): Promise<void>;
}

export async function oauthRig(options: SimulatorOptions = {}): Promise<OAuthRig> {
  const simulator = createSimulator({ frozenAt: T0, onFault: () => {}, ...options });
  const server: Server = createServer(createExpressApp(simulator, { mcp: createMcpEndpoint(simulator, { pollMs: 20 }) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  simulator.internal.oauth.setListeningUrl(base);
  return {
    simulator,
    base,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface SignIn {
  status: number;
  location: string | null;
  html: string;
}

/**
 * What a person does on the sign-in page, done with plain HTTP: open the link, read the
 * form's hidden fields and the CSRF cookie, type a key, press a button.
 */
export async function signIn(authorizationUrl: string, apiKey: string, decision: 'approve' | 'deny' = 'approve', tamper: { dropCookie?: boolean } = {}): Promise<SignIn> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) return { status: page.status, location: page.headers.get('location'), html };
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  const form = new URLSearchParams({ request_id: field('request_id'), csrf_token: field('csrf_token'), api_key: apiKey, decision });
  const action = new URL('/oauth/authorize', authorizationUrl);
  const answer = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(tamper.dropCookie ? {} : { Cookie: cookie }) },
    body: form,
  });
  return { status: answer.status, location: answer.headers.get('location'), html: await answer.text() };
}

/** A control call, validated against simulator-control.yaml like every response. */
export async function control(base: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  assertContract({ method: 'POST', url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, body: JSON.parse(text) };
}

export async function mcpCall(base: string, token: string, name = 'getTokenBalance', args: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    }),
  });
}

const insecure = { [oauth.allowInsecureRequests]: true };

/** A client registered, signed in with `apiKey` on the page, and its tokens: all through oauth4webapi. */
export interface SignedInClient {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  tokens: oauth.TokenEndpointResponse;
  /** Refreshes with the given refresh token; rejects with the server's OAuth error when refused. */
  refresh(refreshToken: string): Promise<oauth.TokenEndpointResponse>;
}

export async function signedInClient(base: string, apiKey: string, name = 'Test assistant', scope = 'svc:read svc:write'): Promise<SignedInClient> {
  const issuer = new URL(base);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }));
  const redirectUri = 'http://127.0.0.1:9/callback';
  const registered = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri], client_name: name, token_endpoint_auth_method: 'none' }, insecure);
  const client = await oauth.processDynamicClientRegistrationResponse(registered);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const query = { response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, scope, state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const answer = await signIn(url.href, apiKey);
  if (answer.status !== 302) throw new Error(`sign-in answered ${answer.status}: ${answer.html.slice(0, 200)}`);
  const params = oauth.validateAuthResponse(as, client, new URL(answer.location!), state);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure));
  const refresh = async (refreshToken: string) =>
    oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure));
  return { as, client, tokens, refresh };
}

/** A service-API call on the rig, validated against openapi.yaml like every response. */
export async function api(base: string, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
