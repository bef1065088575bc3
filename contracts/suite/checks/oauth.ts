import type { Check } from '../check.js';
import { expectEqual, expectThat, SkipSignal } from '../../shared/outcomes.js';
import type { Session } from '../session.js';

/**
 * The MCP server's OAuth 2.1 authorization, black-box: discovery (RFC 9728, RFC 8414), the
 * PKCE and redirect rules that need no signed-in user, and the token rules where the run can
 * get tokens without a browser (the simulator's `/_sim/oauth/tokens`, or tokens given by
 * CONTRACT_OAUTH_*). The spec states only "OAuth 2.1 with PKCE": PKCE is checked at the
 * documented level, the rest at strict. Skipped when the server has no /mcp.
 */
const DISCOVERY = 'MCP authorization: the 401 on /mcp names resource_metadata (RFC 9728), whose authorization server publishes RFC 8414 metadata with an issuer equal to its address and S256 (never plain) PKCE';
const PKCE = 'Authentication 6: OAuth 2.1 with PKCE: an authorization request without code_challenge, or with the plain method, gets no code';
const REDIRECT = 'OAuth 2.1: a redirect_uri the client did not register is never redirected to, and registration refuses one that is neither https nor loopback http';
const TOKEN_ERRORS = 'OAuth 2.1: an unsupported grant type is unsupported_grant_type, in RFC 6749 §5.2 shape, and token responses are Cache-Control: no-store';
const TOKENS = 'OAuth 2.1: an access token works on /mcp and not on the REST API; a refresh rotates the refresh token, a rotated-out one is invalid_grant, a wider scope is invalid_scope; a revoked token is refused';

export interface Discovered {
  resource: string;
  issuer: string;
  as: Record<string, any>;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function getJson(s: Session, url: string): Promise<{ status: number; body: any }> {
  const res = await s.client.raw(pathOf(s, url), { headers: { accept: 'application/json' } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Server-relative path of a URL on the server under test (metadata may name absolute URLs). */
export function pathOf(s: Session, url: string): string {
  const parsed = new URL(url, s.config.baseUrl);
  if (parsed.origin !== new URL(s.config.baseUrl).origin) throw new SkipSignal(`the authorization server ${parsed.origin} is not the server under test`);
  return `${parsed.pathname}${parsed.search}`;
}

export async function discover(s: Session): Promise<Discovered> {
  const challenge = await s.client.raw('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  if (challenge.status === 404) throw new SkipSignal('the server has no MCP endpoint at /mcp');
  const header = challenge.headers.get('www-authenticate') ?? '';
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1];
  expectThat(challenge.status === 401 && metadataUrl, `${DISCOVERY}: /mcp answered ${challenge.status} with WWW-Authenticate ${JSON.stringify(header)}`);
  const prm = await getJson(s, metadataUrl);
  expectEqual(prm.status, 200, `${DISCOVERY}: the status of ${metadataUrl}`);
  expectEqual(prm.body?.resource, `${s.config.baseUrl}/mcp`, `${DISCOVERY}: the protected resource metadata's resource`);
  const issuer = prm.body?.authorization_servers?.[0];
  expectThat(typeof issuer === 'string', `${DISCOVERY}: authorization_servers names no issuer`);
  const url = new URL(issuer);
  const as = await getJson(s, `${url.origin}/.well-known/oauth-authorization-server${url.pathname.replace(/\/$/, '')}`);
  expectEqual(as.status, 200, `${DISCOVERY}: the status of the authorization server metadata`);
  expectEqual(as.body?.issuer, issuer, `${DISCOVERY}: the metadata's issuer`);
  return { resource: prm.body.resource, issuer, as: as.body };
}

/** Discovery, then a client of this run on a loopback redirect URI nobody listens on. */
export async function discoverWithClient(s: Session): Promise<{ d: Discovered; redirectUri: string; clientId: string }> {
  const d = await discover(s);
  const redirectUri = s.config.oauth.redirectUri ?? `http://127.0.0.1:9/${s.config.runId}`;
  return { d, redirectUri, clientId: await client(s, d, redirectUri) };
}

/** A client registered for this run, once (its name carries the run's prefix), or the one configured. */
function client(s: Session, d: Discovered, redirectUri: string): Promise<string> {
  if (s.config.oauth.clientId && s.config.oauth.redirectUri) return Promise.resolve(s.config.oauth.clientId);
  if (!d.as.registration_endpoint) throw new SkipSignal('no registration_endpoint: set CONTRACT_OAUTH_CLIENT_ID and CONTRACT_OAUTH_REDIRECT_URI');
  return s.fixtures.shared(`the OAuth client of this run at ${redirectUri}`, async () => {
    const res = await register(s, d, { client_name: `${s.config.runId} contract check`, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' });
    const body = await res.json().catch(() => ({}));
    expectEqual(res.status, 201, `${REDIRECT}: registering a loopback redirect URI`);
    return body.client_id;
  });
}

/** A registration (RFC 7591) of a client with this metadata, a 429 waited out. */
export function register(s: Session, d: Discovered, metadata: Record<string, unknown>): Promise<Response> {
  return waitingOut429(s, () => s.client.raw(pathOf(s, d.as.registration_endpoint as string), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) }));
}

/**
 * A call to the authorization server that waits out a 429 (slow_down) as its Retry-After
 * says, twice at most and within the run's time: a server slows registrations and token calls
 * per address, and many runs beside one server (CI jobs sharing a simulator) come from one.
 */
async function waitingOut429(s: Session, send: () => Promise<Response>): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    const wait = Number(res.headers.get('retry-after'));
    if (res.status !== 429 || attempt === 2 || !(wait >= 0) || Date.now() + wait * 1000 > s.budgets.deadline) return res;
    await res.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait) * 1000));
  }
}

export function authorizeUrl(d: Discovered, params: Record<string, string>): string {
  const url = new URL(d.as.authorization_endpoint);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

export async function token(s: Session, d: Discovered, form: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await waitingOut429(s, () => s.client.raw(pathOf(s, d.as.token_endpoint), { method: 'POST', headers: FORM, body: new URLSearchParams(form).toString() }));
  return { status: res.status, headers: res.headers, body: await res.json().catch(() => null) };
}

/** The status `/mcp` answers an `initialize` sent with this bearer: whether the credential is still taken. */
export async function mcpStatus(s: Session, bearer: string): Promise<number> {
  const res = await s.client.raw('/mcp', {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'content-contracts', version: '1' } } }),
  });
  await res.body?.cancel();
  return res.status;
}

/** Tokens without a browser: the simulator's shortcut, or the ones configured. */
export async function tokens(s: Session, scopes: string[]): Promise<{ access: string; refresh: string; clientId: string }> {
  if (s.control) {
    const res = await s.client.raw('/_sim/oauth/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey: s.keys.readWrite, scopes }) });
    const body = await res.json();
    return { access: body.access_token, refresh: body.refresh_token, clientId: body.client_id };
  }
  const { accessToken, refreshToken, clientId } = s.config.oauth;
  if (!accessToken || !refreshToken || !clientId) throw new SkipSignal('no tokens: set CONTRACT_OAUTH_ACCESS_TOKEN, CONTRACT_OAUTH_REFRESH_TOKEN and CONTRACT_OAUTH_CLIENT_ID');
  return { access: accessToken, refresh: refreshToken, clientId };
}

export function oauthChecks(): Check[] {
  return [
    {
      id: 'oauth.discovery',
      title: DISCOVERY,
      level: 'strict',
      requests: 3,
      run: async (s) => {
        const { as } = await discover(s);
        for (const name of ['authorization_endpoint', 'token_endpoint']) expectThat(typeof as[name] === 'string', `${DISCOVERY}: ${name} is missing`);
        const methods = as.code_challenge_methods_supported;
        expectThat(Array.isArray(methods) && methods.includes('S256') && !methods.includes('plain'), `${DISCOVERY}: code_challenge_methods_supported is ${JSON.stringify(methods)}`);
      },
    },
    {
      id: 'oauth.pkce',
      title: PKCE,
      level: 'documented',
      requests: 6,
      run: async (s) => {
        const { d, redirectUri, clientId } = await discoverWithClient(s);
        const base = { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, state: 'contract' };
        for (const [label, extra] of [
          ['no code_challenge', {}],
          ['code_challenge_method=plain', { code_challenge: CHALLENGE, code_challenge_method: 'plain' }],
        ] as const) {
          const res = await s.client.raw(pathOf(s, authorizeUrl(d, { ...base, ...extra })), { redirect: 'manual' });
          await res.body?.cancel();
          const location = res.headers.get('location');
          const code = location ? new URL(location, s.config.baseUrl).searchParams.get('code') : null;
          expectThat(code === null, `${PKCE}: with ${label}, the answer carries a code`);
          if (location && s.config.level === 'strict') {
            // An error redirect carries the error, the state sent (OAuth 2.1 §4.1.2.1) and the issuer (RFC 9207 §2).
            const params = new URL(location).searchParams;
            const carried = { error: params.get('error'), state: params.get('state'), iss: params.get('iss') };
            expectEqual(carried, { error: 'invalid_request', state: base.state, iss: d.as.issuer }, `${PKCE}: the error of the redirect with ${label} (its error, the state sent and the issuer)`);
          }
        }
      },
    },
    {
      id: 'oauth.redirect',
      title: REDIRECT,
      level: 'strict',
      requests: 6,
      run: async (s) => {
        const { d, clientId } = await discoverWithClient(s);
        const foreign = 'https://attacker.example/callback';
        const res = await s.client.raw(pathOf(s, authorizeUrl(d, { response_type: 'code', client_id: clientId, redirect_uri: foreign, state: 'x', code_challenge: CHALLENGE, code_challenge_method: 'S256' })), { redirect: 'manual' });
        await res.body?.cancel();
        expectThat(!(res.headers.get('location') ?? '').startsWith(foreign), `${REDIRECT}: redirected to the unregistered ${foreign}`);
        if (!d.as.registration_endpoint) return;
        const reg = await register(s, d, { client_name: `${s.config.runId} bad redirect`, redirect_uris: ['http://attacker.example/cb'] });
        const body = await reg.json().catch(() => ({}));
        expectThat(reg.status === 400 && /^invalid_(redirect_uri|client_metadata)$/.test(body.error), `${REDIRECT}: registering http://attacker.example/cb answered ${reg.status} ${JSON.stringify(body)}`);
      },
    },
    {
      id: 'oauth.token-errors',
      title: TOKEN_ERRORS,
      level: 'strict',
      requests: 4,
      run: async (s) => {
        const d = await discover(s);
        const res = await token(s, d, { grant_type: 'password', username: 'u', password: 'p', client_id: s.config.oauth.clientId ?? 'content-contracts' });
        expectEqual(res.body?.error, res.status === 401 ? 'invalid_client' : 'unsupported_grant_type', `${TOKEN_ERRORS}: the error of grant_type=password`);
        expectThat(res.status === 400 || res.status === 401, `${TOKEN_ERRORS}: the status ${res.status}`);
        expectThat(res.headers.get('cache-control')?.includes('no-store'), `${TOKEN_ERRORS}: Cache-Control is ${res.headers.get('cache-control')}`);
      },
    },
    {
      id: 'oauth.tokens',
      title: TOKENS,
      level: 'strict',
      requests: 12,
      run: async (s) => {
        const d = await discover(s);
        const issued = await tokens(s, ['svc:read']);
        expectEqual(await mcpStatus(s, issued.access), 200, `${TOKENS}: /mcp with the access token`);
        const rest = await s.client.raw('/api/v1/tokens/balance', { headers: { authorization: `Bearer ${issued.access}` } });
        await rest.body?.cancel();
        expectEqual(rest.status, 401, `${TOKENS}: the REST API with the access token`);
        const rotated = await token(s, d, { grant_type: 'refresh_token', client_id: issued.clientId, refresh_token: issued.refresh });
        expectEqual(rotated.status, 200, `${TOKENS}: the status of a refresh`);
        expectThat(rotated.headers.get('cache-control')?.includes('no-store'), `${TOKENS}: a token response without Cache-Control: no-store`);
        expectThat(rotated.body?.refresh_token && rotated.body.refresh_token !== issued.refresh, `${TOKENS}: the refresh token did not rotate`);
        const wider = await token(s, d, { grant_type: 'refresh_token', client_id: issued.clientId, refresh_token: rotated.body.refresh_token, scope: 'svc:read svc:write' });
        expectEqual(wider.body?.error, 'invalid_scope', `${TOKENS}: a refresh asking for svc:write beyond the grant`);
        const replay = await token(s, d, { grant_type: 'refresh_token', client_id: issued.clientId, refresh_token: issued.refresh });
        expectEqual(replay.body?.error, 'invalid_grant', `${TOKENS}: the rotated-out refresh token used again`);
        if (!d.as.revocation_endpoint) return;
        const fresh = await tokens(s, ['svc:read']);
        const revoke = await s.client.raw(pathOf(s, d.as.revocation_endpoint), { method: 'POST', headers: FORM, body: new URLSearchParams({ token: fresh.access, client_id: fresh.clientId }).toString() });
        await revoke.body?.cancel();
        expectEqual(await mcpStatus(s, fresh.access), 401, `${TOKENS}: /mcp with a revoked access token`);
      },
    },
  ];
}
