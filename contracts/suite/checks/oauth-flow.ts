import { createHash, randomBytes } from 'node:crypto';
import type { Check } from '../check.js';
import { McpSession } from '../mcp-client.js';
import { signIn } from '../oauth-sign-in.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { authorizeUrl, discoverWithClient, mcpStatus, token, tokens, type Discovered } from './oauth.js';

const FLOW = 'Authentication 6, OAuth 2.1 §4.1: the authorization-code flow with PKCE: the sign-in sends back a code and the state sent; the code and its verifier give an access token of the spec\'s scopes that /mcp accepts';
const MISMATCH = 'Authentication 6, RFC 7636 §4.6: a code exchanged with a code_verifier that does not match its code_challenge is invalid_grant, and gives no token';
const REUSE = 'OAuth 2.1 §4.1.2: a code is used once: a second exchange is invalid_grant (strict: and the tokens of the first are revoked)';
const EXPIRY = 'OAuth 2.1 §4.1.2, openapi.yaml: a code expires shortly after it is issued (60 s): exchanged later it is invalid_grant';
const AUDIENCE = 'RFC 8707, MCP authorization: tokens are for the resource <base>/mcp: asking for another resource is invalid_target, and a token issued for another resource is refused by /mcp';
const ACCESS_EXPIRY = 'MCP authorization: an expired access token gets 401 on /mcp (access tokens live 1 h); its refresh token still gives a new one';
const VOCABULARY = 'Authentication 6: the same scope vocabulary: an unknown scope gets no code (invalid_scope); a grant holds no scope the signing-in key lacks; a token without svc:write cannot call a write tool';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface Client {
  d: Discovered;
  clientId: string;
  redirectUri: string;
}

export async function client(s: Session): Promise<Client> {
  return s.fixtures.shared('an OAuth client of this run', async () => {
    const { d, clientId, redirectUri } = await discoverWithClient(s);
    return { d, clientId, redirectUri };
  });
}

/** The authorization request, signed in with a key; the URL the user agent is sent back to. */
export async function authorize(s: Session, c: Client, p: Pkce, extra: Record<string, string> = {}, apiKey = s.keys.readWrite as string): Promise<URL> {
  const state = randomBytes(8).toString('hex');
  const url = authorizeUrl(c.d, { response_type: 'code', client_id: c.clientId, redirect_uri: c.redirectUri, state, code_challenge: p.challenge, code_challenge_method: 'S256', scope: 'svc:read svc:write', resource: c.d.resource, ...extra });
  const back = await signIn(s, url, apiKey);
  return Object.assign(back, { sentState: state });
}

/** A code from a sign-in with a PKCE pair of its own, and the verifier that redeems it. */
export async function code(s: Session, c: Client, extra: Record<string, string> = {}, apiKey?: string): Promise<{ value: string; verifier: string }> {
  const p = pkce();
  const back = await authorize(s, c, p, extra, apiKey);
  const value = back.searchParams.get('code');
  expectThat(value, `${FLOW}: the sign-in sent back no code: ${back.href.slice(0, 200)}`);
  return { value: value!, verifier: p.verifier };
}

export function exchange(s: Session, c: Client, codeValue: string, verifier: string, extra: Record<string, string> = {}) {
  return token(s, c.d, { grant_type: 'authorization_code', code: codeValue, code_verifier: verifier, client_id: c.clientId, redirect_uri: c.redirectUri, resource: c.d.resource, ...extra });
}

/** A token request the server must refuse with 400 invalid_grant, issuing nothing. */
export function expectInvalidGrant(reply: { status: number; body: any }, what: string): void {
  expectEqual([reply.status, reply.body?.error], [400, 'invalid_grant'], what);
  expectThat(!reply.body?.access_token, `${what}: a token was issued`);
}

/** The authorization-code flow end to end, and the ways it must refuse. */
export function oauthFlowChecks(): Check[] {
  return [
    {
      id: 'oauth.code-flow',
      title: FLOW,
      level: 'documented',
      requests: 12,
      run: async (s) => {
        const c = await client(s);
        const p = pkce();
        const back = (await authorize(s, c, p)) as URL & { sentState: string };
        expectEqual(back.searchParams.get('state'), back.sentState, `${FLOW}: the state sent back`);
        if (s.strict) expectEqual(back.searchParams.get('iss'), c.d.issuer, 'RFC 9207: the authorization response names its issuer (iss)');
        const value = back.searchParams.get('code');
        expectThat(value, `${FLOW}: no code in ${back.href.slice(0, 200)}`);
        const issued = await exchange(s, c, value!, p.verifier);
        expectEqual(issued.status, 200, `${FLOW}: the status of the exchange (${JSON.stringify(issued.body)})`);
        expectEqual(String(issued.body?.token_type).toLowerCase(), 'bearer', `${FLOW}: token_type`);
        const granted = String(issued.body?.scope ?? '').split(' ').filter(Boolean);
        expectThat(granted.length > 0 && granted.every((g) => g === 'svc:read' || g === 'svc:write'), `${FLOW}: the scopes granted are the spec's: got ${JSON.stringify(issued.body?.scope)}`);
        expectEqual(await mcpStatus(s, issued.body.access_token), 200, `${FLOW}: /mcp with the access token`);
        if (!s.strict) return;
        expectThat(issued.headers.get('cache-control')?.includes('no-store'), `OAuth 2.1 §3.2.3: a token response is Cache-Control: no-store: got ${issued.headers.get('cache-control')}`);
        const second = await code(s, c);
        const wrongRedirect = await exchange(s, c, second.value, second.verifier, { redirect_uri: `${c.redirectUri}/other` });
        expectEqual(wrongRedirect.body?.error, 'invalid_grant', 'OAuth 2.1 §4.1.3: an exchange with another redirect_uri than the authorization request\'s');
      },
    },
    {
      id: 'oauth.verifier-mismatch',
      title: MISMATCH,
      level: 'documented',
      requests: 8,
      run: async (s) => {
        const c = await client(s);
        const { value } = await code(s, c);
        expectInvalidGrant(await exchange(s, c, value, pkce().verifier), `${MISMATCH}: status and error`);
      },
    },
    {
      id: 'oauth.code-reuse',
      title: REUSE,
      level: 'documented',
      requests: 10,
      run: async (s) => {
        const c = await client(s);
        const { value, verifier } = await code(s, c);
        const first = await exchange(s, c, value, verifier);
        expectEqual(first.status, 200, `${REUSE}: the first exchange (${JSON.stringify(first.body)})`);
        expectInvalidGrant(await exchange(s, c, value, verifier), `${REUSE}: the second exchange`);
        if (s.strict) expectEqual(await mcpStatus(s, first.body.access_token), 401, `${REUSE}: /mcp with the access token of the first exchange`);
      },
    },
    {
      id: 'oauth.code-expiry',
      title: EXPIRY,
      level: 'strict',
      simulator: 'moves the clock past the code\'s lifetime',
      requests: 8,
      run: async (s) => {
        const c = await client(s);
        const { value, verifier } = await code(s, c);
        await s.time.sleep(61_000);
        expectInvalidGrant(await exchange(s, c, value, verifier), `${EXPIRY}: the exchange 61 s later`);
      },
    },
    {
      id: 'oauth.audience',
      title: AUDIENCE,
      level: 'strict',
      requests: 10,
      run: async (s) => {
        const c = await client(s);
        const other = 'https://another-resource.example/mcp';
        const asked = await authorize(s, c, pkce(), { resource: other });
        expectThat(!asked.searchParams.get('code'), `${AUDIENCE}: a code for ${other}`);
        expectEqual(asked.searchParams.get('error'), 'invalid_target', `${AUDIENCE}: the error of an authorization request for ${other}`);
        const { value, verifier } = await code(s, c);
        const exchanged = await exchange(s, c, value, verifier, { resource: other });
        expectEqual(exchanged.body?.error, 'invalid_target', `${AUDIENCE}: the error of an exchange for ${other}`);
        if (!s.control) return;
        const minted = await s.client.raw('/_sim/oauth/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey: s.keys.readWrite, resource: other }) });
        const foreign = await minted.json();
        expectEqual(minted.status, 201, `${AUDIENCE}: minting a token for ${other} on the simulator`);
        expectEqual(await mcpStatus(s, foreign.access_token), 401, `${AUDIENCE}: /mcp with a token for ${other}`);
      },
    },
    {
      id: 'oauth.access-expiry',
      title: ACCESS_EXPIRY,
      level: 'strict',
      simulator: 'moves the clock past the access token\'s hour',
      requests: 8,
      run: async (s) => {
        const c = await client(s);
        const issued = await tokens(s, ['svc:read']);
        expectEqual(await mcpStatus(s, issued.access), 200, `${ACCESS_EXPIRY}: /mcp with the fresh token`);
        await s.time.sleep(60 * 60_000 + 1000);
        expectEqual(await mcpStatus(s, issued.access), 401, `${ACCESS_EXPIRY}: /mcp an hour and a second later`);
        const refreshed = await token(s, c.d, { grant_type: 'refresh_token', client_id: issued.clientId, refresh_token: issued.refresh });
        expectEqual(refreshed.status, 200, `${ACCESS_EXPIRY}: the refresh (${JSON.stringify(refreshed.body)})`);
        expectEqual(await mcpStatus(s, refreshed.body.access_token), 200, `${ACCESS_EXPIRY}: /mcp with the refreshed token`);
      },
    },
    {
      id: 'oauth.scope-vocabulary',
      title: VOCABULARY,
      level: 'documented',
      roles: ['readOnly'],
      requests: 14,
      run: async (s) => {
        const c = await client(s);
        const unknown = await authorize(s, c, pkce(), { scope: 'svc:admin' });
        expectThat(!unknown.searchParams.get('code'), `${VOCABULARY}: a code for scope svc:admin`);
        if (s.strict) expectEqual(unknown.searchParams.get('error'), 'invalid_scope', `${VOCABULARY}: the error for scope svc:admin`);
        const { value, verifier } = await code(s, c, {}, s.keys.readOnly);
        const issued = await exchange(s, c, value, verifier);
        expectEqual(issued.status, 200, `${VOCABULARY}: the exchange (${JSON.stringify(issued.body)})`);
        expectEqual(issued.body?.scope, 'svc:read', `${VOCABULARY}: the scope granted to a read-only key that asked for both`);
        const mcp = await McpSession.openWith(s, `Bearer ${issued.body.access_token}`);
        expectEqual(mcp.initialized?.status, 200, `${VOCABULARY}: /mcp with the read token`);
        const write = await mcp.callTool('createTarget', { ...s.newTargetName('scope-vocabulary'), description: 'x', brandKit: { voice: 'v', tone: 't' } });
        const challenge = write.headers['www-authenticate'] ?? '';
        const refused = (write.status === 403 && /insufficient_scope/.test(challenge)) || write.message?.result?.isError === true;
        expectThat(refused, `${VOCABULARY}: a write tool with a token of svc:read answered ${write.status} ${JSON.stringify(write.message).slice(0, 200)}`);
        if (s.strict) expectThat(write.status === 403 && /insufficient_scope/.test(challenge) && /svc:write/.test(challenge), `MCP authorization: a token without the tool's scope gets 403 with WWW-Authenticate error="insufficient_scope" naming it: got ${write.status} ${challenge}`);
      },
    },
  ];
}

