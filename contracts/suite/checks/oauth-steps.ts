import { randomBytes } from 'node:crypto';
import type { Check } from '../check.js';
import { signIn } from '../oauth-sign-in.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { authorizeUrl, discover, mcpStatus, pathOf, register, token } from './oauth.js';
import { client, code, exchange, expectInvalidGrant, pkce, type Client } from './oauth-flow.js';

/**
 * The authorization server's flows carried past their first step: what a replay revokes, a
 * downgraded or cross-client exchange, each token kind revoked (with the other kind's hint)
 * and tried again, a denied sign-in's redirect, the metadata against what the server does,
 * and the sign-in page's escaping of what a client registered.
 */
export const REFRESH_REPLAY = 'OAuth 2.1 §4.3.1, RFC 9700 §4.14.2: a rotated-out refresh token presented again is invalid_grant, and the refresh token and access token that replaced it are revoked with it';
export const CROSS_CLIENT = 'OAuth 2.1 §4.1.3, §4.3.1: a code or a refresh token of one client is invalid_grant for another; another client\'s revocation request does not revoke it';
export const DOWNGRADE = 'RFC 7636 §4.6, OAuth 2.1 §4.1.3: a code whose request had an S256 code_challenge gives no token without a code_verifier, nor with the challenge itself sent as the verifier (a downgrade to plain)';
export const REVOKE_KINDS = 'RFC 7009 §2.1, §2.2: either token kind is revoked whatever token_type_hint says (the server extends its search); a revoked refresh token is invalid_grant and the access tokens of its grant stop working; revoking again still answers 200';
export const DENIED = 'OAuth 2.1 §4.1.2.1, RFC 9207 §2: a sign-in the user denies sends the user agent back with error=access_denied, the state sent and iss, and no code';
export const METADATA = 'RFC 8414 §2, RFC 9728 §2, RFC 9207 §3: the metadata names what the server does: response_types_supported with code, the grant types, the registration and revocation endpoints it serves, token_endpoint_auth_methods none for public clients, authorization_response_iss_parameter_supported true when its redirects carry iss, the spec\'s scopes; the resource metadata names its resource, its authorization server, bearer in the header';
export const PAGE_ESCAPES = 'OAuth 2.1 §7.6, HTML: a registered client_name is shown on the sign-in page as text: its markup is escaped, never run';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A second client of this run (its own registration), for the cross-client steps. */
function otherClient(s: Session, c: Client): Promise<Client> {
  return s.fixtures.shared('a second OAuth client of this run', async () => {
    if (!c.d.as.registration_endpoint) s.skipBecause('no registration_endpoint: a second client cannot be registered');
    const redirectUri = `http://127.0.0.1:9/${s.config.runId}-other`;
    const res = await register(s, c.d, { client_name: `${s.config.runId} second client`, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' });
    const body = await res.json().catch(() => ({}));
    expectEqual(res.status, 201, `${CROSS_CLIENT}: registering a second client`);
    return { d: c.d, clientId: body.client_id, redirectUri };
  });
}

/** Tokens from the code flow (a grant of their own). */
async function grant(s: Session, c: Client, rule: string): Promise<{ access: string; refresh: string }> {
  const { value, verifier } = await code(s, c);
  const issued = await exchange(s, c, value, verifier);
  expectEqual(issued.status, 200, `${rule}: the exchange that starts the flow (${JSON.stringify(issued.body)})`);
  return { access: issued.body.access_token, refresh: issued.body.refresh_token };
}

async function revoke(s: Session, c: Client, value: string, hint?: string): Promise<number> {
  const res = await s.client.raw(pathOf(s, c.d.as.revocation_endpoint), { method: 'POST', headers: FORM, body: new URLSearchParams({ token: value, client_id: c.clientId, ...(hint ? { token_type_hint: hint } : {}) }).toString() });
  await res.body?.cancel();
  return res.status;
}

const refreshWith = (s: Session, c: Client, refreshToken: string) => token(s, c.d, { grant_type: 'refresh_token', client_id: c.clientId, refresh_token: refreshToken });

export function oauthStepChecks(): Check[] {
  const strict = { level: 'strict' as const };
  return [
    {
      ...strict,
      id: 'oauth.refresh-replay',
      title: REFRESH_REPLAY,
      requests: 14,
      run: async (s) => {
        const c = await client(s);
        const first = await grant(s, c, REFRESH_REPLAY);
        const rotated = await refreshWith(s, c, first.refresh);
        expectEqual(rotated.status, 200, `${REFRESH_REPLAY}: the first refresh (${JSON.stringify(rotated.body)})`);
        expectInvalidGrant(await refreshWith(s, c, first.refresh), `${REFRESH_REPLAY}: the rotated-out refresh token presented again`);
        expectInvalidGrant(await refreshWith(s, c, rotated.body.refresh_token), `${REFRESH_REPLAY}: the refresh token that replaced it, after the replay`);
        expectEqual(await mcpStatus(s, rotated.body.access_token), 401, `${REFRESH_REPLAY}: /mcp with the access token that replaced it, after the replay`);
      },
    },
    {
      ...strict,
      id: 'oauth.cross-client',
      title: CROSS_CLIENT,
      requests: 20,
      run: async (s) => {
        const c = await client(s);
        const other = await otherClient(s, c);
        const { value, verifier } = await code(s, c);
        expectInvalidGrant(await exchange(s, other, value, verifier, { redirect_uri: c.redirectUri }), `${CROSS_CLIENT}: client A's code exchanged by client B`);
        const mine = await grant(s, c, CROSS_CLIENT);
        expectInvalidGrant(await refreshWith(s, other, mine.refresh), `${CROSS_CLIENT}: client A's refresh token used by client B`);
        if (!c.d.as.revocation_endpoint) return;
        await revoke(s, other, mine.access);
        expectEqual(await mcpStatus(s, mine.access), 200, `${CROSS_CLIENT}: /mcp with client A's access token after client B asked to revoke it`);
      },
    },
    {
      ...strict,
      id: 'oauth.pkce-downgrade',
      title: DOWNGRADE,
      requests: 10,
      run: async (s) => {
        const c = await client(s);
        const p = pkce();
        const back = await signIn(s, authorizeUrl(c.d, { response_type: 'code', client_id: c.clientId, redirect_uri: c.redirectUri, state: 'downgrade', code_challenge: p.challenge, code_challenge_method: 'S256', scope: 'svc:read', resource: c.d.resource }), s.keys.readWrite as string);
        const value = back.searchParams.get('code');
        expectThat(value, `${DOWNGRADE}: the sign-in sent back no code: ${back.href.slice(0, 200)}`);
        const base = { grant_type: 'authorization_code', code: value!, client_id: c.clientId, redirect_uri: c.redirectUri, resource: c.d.resource };
        const without = await token(s, c.d, base);
        expectThat(without.status === 400 && /^invalid_(request|grant)$/.test(without.body?.error) && !without.body?.access_token, `${DOWNGRADE}: the exchange without code_verifier answered ${without.status} ${JSON.stringify(without.body)}`);
        expectInvalidGrant(await token(s, c.d, { ...base, code_verifier: p.challenge }), `${DOWNGRADE}: the exchange with the code_challenge as its verifier`);
      },
    },
    {
      ...strict,
      id: 'oauth.revocation-kinds',
      title: REVOKE_KINDS,
      requests: 20,
      run: async (s) => {
        const c = await client(s);
        if (!c.d.as.revocation_endpoint) s.skipBecause('the metadata names no revocation_endpoint');
        const a = await grant(s, c, REVOKE_KINDS);
        expectEqual(await revoke(s, c, a.access, 'refresh_token'), 200, `${REVOKE_KINDS}: revoking an access token with token_type_hint=refresh_token`);
        expectEqual(await mcpStatus(s, a.access), 401, `${REVOKE_KINDS}: /mcp with an access token revoked under the other kind's hint`);
        expectEqual(await revoke(s, c, a.access, 'access_token'), 200, `${REVOKE_KINDS}: revoking the revoked access token again`);
        const b = await grant(s, c, REVOKE_KINDS);
        expectEqual(await revoke(s, c, b.refresh, 'access_token'), 200, `${REVOKE_KINDS}: revoking a refresh token with token_type_hint=access_token`);
        expectInvalidGrant(await refreshWith(s, c, b.refresh), `${REVOKE_KINDS}: a refresh with the revoked refresh token`);
        expectEqual(await mcpStatus(s, b.access), 401, `${REVOKE_KINDS}: /mcp with the access token of a grant whose refresh token was revoked`);
        expectEqual(await revoke(s, c, `never-issued-${randomBytes(6).toString('hex')}`), 200, `${REVOKE_KINDS}: revoking a token the server never issued`);
      },
    },
    {
      ...strict,
      id: 'oauth.denied',
      title: DENIED,
      simulator: 'denies a sign-in on its sign-in page',
      requests: 6,
      run: async (s) => {
        const c = await client(s);
        const state = randomBytes(8).toString('hex');
        const back = await signIn(s, authorizeUrl(c.d, { response_type: 'code', client_id: c.clientId, redirect_uri: c.redirectUri, state, code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'svc:read', resource: c.d.resource }), s.keys.readWrite as string, 'deny');
        expectEqual(`${back.origin}${back.pathname}`, c.redirectUri, `${DENIED}: where the denied sign-in sends the user agent`);
        const p = back.searchParams;
        expectEqual({ error: p.get('error'), state: p.get('state'), iss: p.get('iss'), code: p.get('code') }, { error: 'access_denied', state, iss: c.d.issuer, code: null }, `${DENIED}: what the redirect carries`);
      },
    },
    {
      ...strict,
      id: 'oauth.metadata-complete',
      title: METADATA,
      requests: 6,
      run: async (s) => {
        const d = await discover(s);
        const as = d.as;
        const has = (list: unknown, ...values: string[]) => Array.isArray(list) && values.every((v) => list.includes(v));
        expectThat(has(as.response_types_supported, 'code'), `${METADATA}: response_types_supported is ${JSON.stringify(as.response_types_supported)}`);
        expectThat(has(as.grant_types_supported ?? ['authorization_code', 'implicit'], 'authorization_code', 'refresh_token'), `${METADATA}: grant_types_supported is ${JSON.stringify(as.grant_types_supported)}, and the server refreshes tokens (absent, it means authorization_code and implicit only)`);
        expectThat(has(as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'], 'none'), `${METADATA}: token_endpoint_auth_methods_supported is ${JSON.stringify(as.token_endpoint_auth_methods_supported)}, and the server's clients are public (none)`);
        for (const name of ['registration_endpoint', 'revocation_endpoint']) expectThat(typeof as[name] === 'string', `${METADATA}: ${name} is missing, and the server serves it`);
        if (as.scopes_supported !== undefined) expectThat(has(as.scopes_supported, 'svc:read', 'svc:write'), `${METADATA}: scopes_supported is ${JSON.stringify(as.scopes_supported)}`);
        // The iss the redirects carry (oauth.code-flow reads one) must be announced (RFC 9207 §3).
        const c = await client(s);
        const back = await signIn(s, authorizeUrl(d, { response_type: 'code', client_id: c.clientId, redirect_uri: c.redirectUri, state: 'metadata', code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'svc:read', resource: d.resource }), s.keys.readWrite as string);
        if (back.searchParams.has('iss')) expectEqual(as.authorization_response_iss_parameter_supported, true, `${METADATA}: authorization_response_iss_parameter_supported, while the authorization response carries iss`);
        const prm = await s.client.raw('/.well-known/oauth-protected-resource/mcp', { headers: { accept: 'application/json' } });
        const resource = await prm.json().catch(() => null);
        expectEqual(prm.status, 200, `${METADATA}: the protected resource metadata at /.well-known/oauth-protected-resource/mcp`);
        expectEqual({ resource: resource?.resource, issuer: resource?.authorization_servers?.[0] }, { resource: d.resource, issuer: d.issuer }, `${METADATA}: the protected resource metadata's resource and authorization server`);
        if (resource?.bearer_methods_supported !== undefined) expectThat(has(resource.bearer_methods_supported, 'header'), `${METADATA}: bearer_methods_supported is ${JSON.stringify(resource.bearer_methods_supported)}`);
      },
    },
    {
      ...strict,
      id: 'oauth.page-escapes',
      title: PAGE_ESCAPES,
      simulator: 'reads its sign-in page',
      requests: 4,
      run: async (s) => {
        const d = await discover(s);
        if (!d.as.registration_endpoint) s.skipBecause('no registration_endpoint');
        const marker = `<img src=x onerror="alert('${s.config.runId}')">`;
        const redirectUri = `http://127.0.0.1:9/${s.config.runId}-markup`;
        const reg = await register(s, d, { client_name: marker, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' });
        const registered = await reg.json().catch(() => ({}));
        if (reg.status !== 201) return s.skipBecause(`the server refused a client_name with markup (${reg.status}): nothing to show`);
        const page = await s.client.raw(pathOf(s, authorizeUrl(d, { response_type: 'code', client_id: registered.client_id, redirect_uri: redirectUri, state: 'x', code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'svc:read', resource: d.resource })), { redirect: 'manual' });
        const html = await page.text();
        expectEqual(page.status, 200, `${PAGE_ESCAPES}: the sign-in page of the client`);
        expectThat(!html.includes('<img src=x'), `${PAGE_ESCAPES}: the page holds the client_name's markup as markup: ${html.slice(Math.max(0, html.indexOf('<img src=x') - 60), html.indexOf('<img src=x') + 80)}`);
      },
    },
  ];
}
