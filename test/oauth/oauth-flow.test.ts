import * as oauth from 'oauth4webapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertContract } from '../support/contract.js';
import { mcpCall, oauthRig, signIn, type OAuthRig } from './support.js';

/** The whole sign-in with an independent client library, oauth4webapi, as an assistant would. */
let rig: OAuthRig;
beforeEach(async () => (rig = await oauthRig()));
afterEach(async () => rig.close());

const insecure = { [oauth.allowInsecureRequests]: true };

export async function discover(base: string) {
  const prm = await oauth.processResourceDiscoveryResponse(new URL(`${base}/mcp`), await oauth.resourceDiscoveryRequest(new URL(`${base}/mcp`), insecure));
  const issuer = new URL(prm.authorization_servers![0]!);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }));
  return { prm, as };
}

export async function register(as: oauth.AuthorizationServer, redirectUri: string, name = 'Test assistant'): Promise<oauth.Client> {
  const response = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri], client_name: name, token_endpoint_auth_method: 'none' }, insecure);
  return oauth.processDynamicClientRegistrationResponse(response);
}

export async function authorizationUrl(as: oauth.AuthorizationServer, client: oauth.Client, redirectUri: string, resource: string, scope = 'svc:read svc:write') {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, scope, state, resource, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })) {
    url.searchParams.set(k, v);
  }
  return { url: url.href, verifier, state };
}

describe('OAuth 2.1 sign-in for /mcp, driven by oauth4webapi', () => {
  it('discovers the authorization server from /mcp alone', async () => {
    const challenge = await fetch(`${rig.base}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe(
      `Bearer realm="content-service", scope="svc:read svc:write", resource_metadata="${rig.base}/.well-known/oauth-protected-resource/mcp"`,
    );
    const { prm, as } = await discover(rig.base);
    expect(prm).toMatchObject({ resource: `${rig.base}/mcp`, authorization_servers: [rig.base], scopes_supported: ['svc:read', 'svc:write'] });
    const root = await (await fetch(`${rig.base}/.well-known/oauth-protected-resource`)).json();
    expect(root).toEqual(prm);
    expect(as.issuer).toBe(rig.base);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
  });

  it('registers, signs in with an API key, gets tokens, calls a tool, refreshes, revokes', async () => {
    const { as } = await discover(rig.base);
    const redirectUri = 'http://127.0.0.1:9/callback';
    const client = await register(as, redirectUri);
    const { url, verifier, state } = await authorizationUrl(as, client, redirectUri, `${rig.base}/mcp`);

    const answer = await signIn(url, rig.simulator.keys.readWrite);
    expect(answer.status).toBe(302);
    const callback = new URL(answer.location!);
    expect(callback.searchParams.get('iss')).toBe(rig.base);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { ...insecure, additionalParameters: { resource: `${rig.base}/mcp` } }),
    );
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'svc:read svc:write' });

    const call = await mcpCall(rig.base, tokens.access_token);
    expect(call.status).toBe(200);
    expect((await call.json()).result.structuredContent).toEqual({ balance: 100, lifetimePurchased: 100, lifetimeUsed: 0 });

    // REST takes API keys only (spec, Authentication 1).
    const rest = await fetch(`${rig.base}/api/v1/tokens/balance`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    const restBody = await rest.text();
    assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: rest.status, headers: Object.fromEntries(rest.headers), body: restBody });
    expect(rest.status).toBe(401);

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpCall(rig.base, refreshed.access_token)).status).toBe(200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure));
    const revoked = await mcpCall(rig.base, refreshed.access_token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('expires access tokens on the virtual clock', async () => {
    const minted = await (await fetch(`${rig.base}/_sim/oauth/tokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiKey: rig.simulator.keys.readWrite }) })).json();
    expect((await mcpCall(rig.base, minted.access_token)).status).toBe(200);
    rig.simulator.clock.advance(3_600_000);
    const expired = await mcpCall(rig.base, minted.access_token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: expect.stringContaining('expired') });
  });
});
