import * as oauth from 'oauth4webapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { control, mcpCall, oauthRig, signIn, type OAuthRig } from './support.js';

/**
 * The attack list: each rule of OAuth 2.1 / RFC 9700 the authorization server enforces,
 * tried the way an attacker (or a careless client) would, each showing the refusal.
 */
let rig: OAuthRig;
let as: { authorization_endpoint: string; token_endpoint: string; registration_endpoint: string; revocation_endpoint: string };
const REDIRECT = 'http://127.0.0.1:9/callback';

beforeEach(async () => {
  rig = await oauthRig();
  as = await (await fetch(`${rig.base}/.well-known/oauth-authorization-server`)).json();
});
afterEach(async () => rig.close());

async function registerClient(redirectUris = [REDIRECT]): Promise<string> {
  const res = await fetch(as.registration_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: redirectUris, client_name: 'c' }) });
  expect(res.status).toBe(201);
  return (await res.json()).client_id;
}

async function authorizeUrl(clientId: string, over: Record<string, string | null> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: 'st4te',
    scope: 'svc:read svc:write',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...over,
  };
  const url = new URL(as.authorization_endpoint);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return { url: url.href, verifier };
}

async function token(form: Record<string, string>) {
  const res = await fetch(as.token_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** Signs in and returns the code and its verifier. */
async function code(clientId: string, key = rig.simulator.keys.readWrite, over: Record<string, string | null> = {}) {
  const { url, verifier } = await authorizeUrl(clientId, over);
  const answer = await signIn(url, key);
  expect(answer.status, answer.html).toBe(302);
  return { code: new URL(answer.location!).searchParams.get('code')!, verifier };
}

async function tokens(clientId: string) {
  const { code: c, verifier } = await code(clientId);
  const res = await token({ grant_type: 'authorization_code', client_id: clientId, code: c, redirect_uri: REDIRECT, code_verifier: verifier });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string; scope: string };
}

const redirectError = async (url: string) => {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!).searchParams;
};

describe('the authorization endpoint', () => {
  it('requires PKCE: no challenge, or plain, is invalid_request redirected with state and iss', async () => {
    const clientId = await registerClient();
    const cases: Record<string, string | null>[] = [{ code_challenge: null, code_challenge_method: null }, { code_challenge_method: 'plain' }, { code_challenge_method: null }];
    for (const over of cases) {
      const params = await redirectError((await authorizeUrl(clientId, over)).url);
      expect(Object.fromEntries(params)).toMatchObject({ error: 'invalid_request', state: 'st4te', iss: rig.base });
    }
  });

  it('never redirects for an unknown client or an unregistered redirect_uri: a 400 page', async () => {
    const clientId = await registerClient();
    const cases: Record<string, string | null>[] = [{ client_id: 'client_unknown' }, { redirect_uri: 'http://127.0.0.1:9/other' }, { redirect_uri: `${REDIRECT}?x=1` }, { redirect_uri: null }];
    for (const over of cases) {
      const res = await fetch((await authorizeUrl(clientId, over)).url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('refuses an unknown scope (invalid_scope) and a foreign resource (invalid_target)', async () => {
    const clientId = await registerClient();
    expect((await redirectError((await authorizeUrl(clientId, { scope: 'admin' })).url)).get('error')).toBe('invalid_scope');
    expect((await redirectError((await authorizeUrl(clientId, { resource: 'https://evil.example/mcp' })).url)).get('error')).toBe('invalid_target');
  });

  it('answers code, state and iss; Deny is access_denied; a wrong key shows the page again and issues nothing', async () => {
    const clientId = await registerClient();
    const { url } = await authorizeUrl(clientId);
    const approved = new URL((await signIn(url, rig.simulator.keys.readWrite)).location!);
    expect([...approved.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
    const denied = await signIn((await authorizeUrl(clientId)).url, '', 'deny');
    expect(Object.fromEntries(new URL(denied.location!).searchParams)).toMatchObject({ error: 'access_denied', state: 'st4te', iss: rig.base });
    const before = rig.simulator.internal.oauth.store.codes.size;
    for (const key of ['svc_live_' + '0'.repeat(40), rig.simulator.keys.revoked, 'nonsense']) {
      const wrong = await signIn((await authorizeUrl(clientId)).url, key);
      expect(wrong.status).toBe(401);
      expect(wrong.location).toBeNull();
      expect(wrong.html).toContain('did not sign you in');
    }
    expect(rig.simulator.internal.oauth.store.codes.size).toBe(before);
  });

  it('refuses a form posted without the page’s CSRF cookie', async () => {
    const clientId = await registerClient();
    const forged = await signIn((await authorizeUrl(clientId)).url, rig.simulator.keys.readWrite, 'approve', { dropCookie: true });
    expect(forged.status).toBe(403);
    expect(forged.location).toBeNull();
  });

  it('grants the requested scopes the key holds, and /mcp then asks for a step-up', async () => {
    const clientId = await registerClient();
    const { code: c, verifier } = await code(clientId, rig.simulator.keys.readOnly);
    const res = await token({ grant_type: 'authorization_code', client_id: clientId, code: c, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(res.body.scope).toBe('svc:read');
    const write = await mcpCall(rig.base, res.body.access_token, 'createTarget', { name: 'x' });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="svc:read svc:write"');
  });
});

describe('the token endpoint', () => {
  it('answers JSON with Cache-Control: no-store, errors in RFC 6749 §5.2 shape', async () => {
    const clientId = await registerClient();
    const { code: c, verifier } = await code(clientId);
    const ok = await token({ grant_type: 'authorization_code', client_id: clientId, code: c, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const bad = await token({ grant_type: 'password', client_id: clientId, username: 'a', password: 'b' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
    expect(bad.headers.get('cache-control')).toBe('no-store');
    expect((await token({ grant_type: 'client_credentials', client_id: clientId })).body.error).toBe('unsupported_grant_type');
    expect((await token({ client_id: clientId })).body.error).toBe('invalid_request');
    const unknownClient = await token({ grant_type: 'authorization_code', client_id: 'client_nobody', code: 'x', code_verifier: verifier });
    expect(unknownClient.status).toBe(401);
    expect(unknownClient.body.error).toBe('invalid_client');
  });

  it('makes codes single-use: a second redemption is invalid_grant and revokes what the first gave', async () => {
    const clientId = await registerClient();
    const { code: c, verifier } = await code(clientId);
    const form = { grant_type: 'authorization_code', client_id: clientId, code: c, redirect_uri: REDIRECT, code_verifier: verifier };
    const first = await token(form);
    expect((await mcpCall(rig.base, first.body.access_token)).status).toBe(200);
    expect((await token(form)).body.error).toBe('invalid_grant');
    expect((await mcpCall(rig.base, first.body.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.body.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('binds the code to its client, redirect_uri, challenge and resource, for 60 seconds', async () => {
    const a = await registerClient();
    const b = await registerClient();
    const { code: c, verifier } = await code(a);
    const base = { grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, code_verifier: verifier };
    expect((await token({ ...base, client_id: b })).body.error).toBe('invalid_grant'); // code injection across clients
    expect((await token({ ...base, client_id: a, redirect_uri: 'http://127.0.0.1:9/other' })).body.error).toBe('invalid_grant');
    expect((await token({ ...base, client_id: a, code_verifier: oauth.generateRandomCodeVerifier() })).body.error).toBe('invalid_grant');
    expect((await token({ ...base, client_id: a, resource: 'https://evil.example/mcp' })).body.error).toBe('invalid_target');
    const late = await code(a);
    rig.simulator.clock.advance(61_000);
    expect((await token({ ...base, client_id: a, code: late.code, code_verifier: late.verifier })).body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('expired') });
  });

  it('rotates refresh tokens: a rotated-out one is invalid_grant and revokes the grant; no widening; no other client', async () => {
    const clientId = await registerClient();
    const other = await registerClient();
    const first = await tokens(clientId);
    expect((await token({ grant_type: 'refresh_token', client_id: other, refresh_token: first.refresh_token })).body.error).toBe('invalid_grant');
    const narrowed = await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token, scope: 'svc:read' });
    expect(narrowed.body.scope).toBe('svc:read');
    const widen = await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: narrowed.body.refresh_token, scope: 'svc:read svc:admin' });
    expect(widen.body.error).toBe('invalid_scope');
    const replay = await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token });
    expect(replay.body.error).toBe('invalid_grant');
    expect((await mcpCall(rig.base, narrowed.body.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: narrowed.body.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('refuses a token replayed after revocation, and a token for another resource', async () => {
    const clientId = await registerClient();
    const issued = await tokens(clientId);
    await fetch(as.revocation_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, token: issued.access_token }) });
    expect((await mcpCall(rig.base, issued.access_token)).status).toBe(401);
    const foreign = await control(rig.base, '/_sim/oauth/tokens', { apiKey: rig.simulator.keys.readWrite, resource: 'https://other.example/mcp' });
    const refused = await mcpCall(rig.base, foreign.body.access_token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining('issued for https://other.example/mcp') });
  });
});

describe('registration, storage, limits', () => {
  it('refuses redirect URIs that are neither https nor loopback http', async () => {
    for (const uri of ['http://example.com/cb', 'javascript:alert(1)', 'https://ok.example/cb#frag', 'not a url', 'ftp://127.0.0.1/cb']) {
      const res = await fetch(as.registration_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [uri] }) });
      expect(res.status, uri).toBe(400);
      expect((await res.json()).error).toBe('invalid_redirect_uri');
    }
    expect(await registerClient(['https://app.example/cb', 'http://[::1]:8080/cb', 'http://localhost/cb'])).toMatch(/^client_/);
  });

  it('keeps codes and tokens only as digests', async () => {
    const clientId = await registerClient();
    const { code: c } = await code(clientId);
    const issued = await tokens(clientId);
    const { store } = rig.simulator.internal.oauth;
    const keys = [...store.codes.keys(), ...store.accessTokens.keys(), ...store.refreshTokens.keys()];
    for (const secret of [c, issued.access_token, issued.refresh_token]) {
      expect(keys).not.toContain(secret);
      expect(JSON.stringify([...store.codes.values(), ...store.accessTokens.values(), ...store.refreshTokens.values()])).not.toContain(secret);
    }
  });

  it('rate-limits registration and the token endpoint', async () => {
    for (let i = 0; i < 20; i++) await registerClient();
    const limited = await fetch(as.registration_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    rig.simulator.clock.advance(60_000);
    const clientId = await registerClient();
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: 'sim_rt_x' })).status;
    expect(last).toBe(429);
  });
});
