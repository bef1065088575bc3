import type { EngineRequest } from '../../src/engine/types.js';
import { editJson, is, jsonOf, withHeaders, withJson, type Handle } from './tamper.js';
import type { Violation } from './violation.js';

/** Violations of the MCP server's OAuth 2.1 authorization: discovery, PKCE, redirects, tokens. */
const formOf = (request: EngineRequest) => new URLSearchParams(new TextDecoder().decode(request.body ?? new Uint8Array()));
const queryOf = (request: EngineRequest) => new URLSearchParams(request.url.split('?')[1] ?? '');
const TOKEN = /^\/oauth\/token$/;
const AUTHORIZE = /^\/oauth\/authorize$/;
const FAKE_TOKENS = { access_token: 'sim_at_forged', token_type: 'Bearer', expires_in: 3600, refresh_token: 'sim_rt_forged', scope: 'svc:read svc:write' };

/** Answers a request with a redirect, whatever the server decided. */
function redirectTo(handle: Handle, when: (req: EngineRequest) => boolean, location: (req: EngineRequest) => string): Handle {
  return (request) => {
    const response = handle(request);
    if (!when(request)) return response;
    return { ...response, status: 302, body: '', headers: { ...response.headers, location: location(request) } };
  };
}

export const OAUTH_VIOLATIONS: Violation[] = [
  {
    id: 'oauth-challenge-without-resource-metadata',
    description: 'the 401 on /mcp does not name resource_metadata',
    rule: 'the 401 on /mcp names resource_metadata',
    wrapMcp: (fetch) => async (request) => {
      const response = await fetch(request);
      if (response.status !== 401) return response;
      const headers = new Headers(response.headers);
      headers.set('www-authenticate', 'Bearer realm="content-service"');
      return new Response(response.body, { status: 401, headers });
    },
  },
  {
    id: 'oauth-issuer-differs',
    description: 'the authorization server metadata names another issuer than its address',
    rule: "the metadata's issuer",
    wrap: (h) => editJson(h, (req) => is(req, 'GET', /^\/\.well-known\/oauth-authorization-server$/), (json) => void (json.issuer = 'https://login.example.com')),
  },
  {
    id: 'oauth-plain-pkce-advertised',
    description: 'the metadata offers the plain PKCE method',
    rule: 'code_challenge_methods_supported',
    wrap: (h) => editJson(h, (req) => is(req, 'GET', /^\/\.well-known\/oauth-authorization-server$/), (json) => void (json.code_challenge_methods_supported = ['S256', 'plain'])),
  },
  {
    id: 'oauth-code-without-pkce',
    description: 'an authorization request without code_challenge gets a code',
    rule: 'gets no code',
    documented: true,
    wrap: (h) =>
      redirectTo(
        h,
        (req) => is(req, 'GET', AUTHORIZE) && !queryOf(req).has('code_challenge') && queryOf(req).has('redirect_uri'),
        (req) => `${queryOf(req).get('redirect_uri')}?code=sim_ac_forged&state=${queryOf(req).get('state')}`,
      ),
  },
  {
    id: 'oauth-pkce-wrong-error',
    description: 'a plain code_challenge_method is refused with server_error instead of invalid_request',
    rule: 'the error of the redirect with code_challenge_method=plain',
    wrap: (h) => (request) => {
      const response = h(request);
      const location = response.headers.location;
      if (!is(request, 'GET', AUTHORIZE) || !location || queryOf(request).get('code_challenge_method') !== 'plain') return response;
      const url = new URL(location);
      url.searchParams.set('error', 'server_error');
      return { ...response, headers: { ...response.headers, location: url.href } };
    },
  },
  {
    id: 'oauth-open-redirect',
    description: 'an unregistered redirect_uri is redirected to',
    rule: 'is never redirected to',
    wrap: (h) => redirectTo(h, (req) => is(req, 'GET', AUTHORIZE) && (queryOf(req).get('redirect_uri') ?? '').startsWith('https://attacker.example'), (req) => `${queryOf(req).get('redirect_uri')}?error=access_denied`),
  },
  {
    id: 'oauth-registers-http-redirect',
    description: 'registration accepts a plain-http redirect URI on a public host',
    rule: 'registration refuses one that is neither https nor loopback http',
    wrap: (h) => (request) => {
      const response = h(request);
      if (!is(request, 'POST', /^\/oauth\/register$/) || response.status !== 400) return response;
      return withJson(response, { client_id: 'client_forged', redirect_uris: ['http://attacker.example/cb'] }, 201);
    },
  },
  {
    id: 'oauth-grant-error-shape',
    description: 'an unsupported grant type is answered in the service error shape, not RFC 6749’s',
    rule: 'an unsupported grant type is unsupported_grant_type',
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', TOKEN) && res.status === 400 && formOf(req).get('grant_type') === 'password', () => ({ error: 'Unsupported grant.', code: 'VALIDATION_ERROR', details: {} })),
  },
  {
    id: 'oauth-token-cacheable',
    description: 'token responses may be cached',
    rule: 'Cache-Control',
    wrap: (h) => (request) => {
      const response = h(request);
      return is(request, 'POST', TOKEN) ? withHeaders(response, (headers) => (delete headers['cache-control'], delete headers.pragma)) : response;
    },
  },
  {
    id: 'oauth-access-token-on-rest',
    description: 'the REST API accepts an OAuth access token',
    rule: 'the REST API with the access token',
    wrap: (h, sim) => (request) => {
      const bearer = request.headers.authorization ?? '';
      if (!bearer.startsWith('Bearer sim_at_') || !request.url.startsWith('/api/')) return h(request);
      return h({ ...request, headers: { ...request.headers, authorization: `Bearer ${sim.keys.readWrite}` } });
    },
  },
  {
    id: 'oauth-refresh-not-rotated',
    description: 'a refresh answers the same refresh token',
    rule: 'the refresh token did not rotate',
    wrap: (h) => editJson(h, (req, res) => is(req, 'POST', TOKEN) && res.status === 200 && formOf(req).get('grant_type') === 'refresh_token', (json, req) => void (json.refresh_token = formOf(req).get('refresh_token'))),
  },
  {
    id: 'oauth-refresh-replay-accepted',
    description: 'a rotated-out refresh token still gives tokens',
    rule: 'the rotated-out refresh token used again',
    wrap: (h) => (request) => {
      const response = h(request);
      const replayed = is(request, 'POST', TOKEN) && response.status === 400 && jsonOf(response).error === 'invalid_grant' && formOf(request).get('grant_type') === 'refresh_token';
      return replayed ? withJson(response, FAKE_TOKENS, 200) : response;
    },
  },
  {
    id: 'oauth-refresh-widens-scope',
    description: 'a refresh may ask for more scopes than were granted',
    rule: 'a refresh asking for svc:write beyond the grant',
    wrap: (h) => (request) => {
      const response = h(request);
      const widened = is(request, 'POST', TOKEN) && response.status === 400 && jsonOf(response).error === 'invalid_scope';
      return widened ? withJson(response, FAKE_TOKENS, 200) : response;
    },
  },
  {
    id: 'oauth-revocation-ignored',
    description: 'revocation answers 200 and revokes nothing',
    rule: '/mcp with a revoked access token',
    wrap: (h) => (request) => (is(request, 'POST', /^\/oauth\/revoke$/) ? { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: '{}', log: { correlationId: 'corr_0' } } : h(request)),
  },
];
