import type { Check } from '../check.js';
import { McpSession } from '../mcp-client.js';
import { redirectOf } from '../oauth-sign-in.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';
import { toolError } from './mcp.js';
import { authorizeUrl } from './oauth.js';
import { client, code, exchange, pkce } from './oauth-flow.js';

/**
 * What an OAuth credential may not reach: a token of an assistant's grant minting or rotating
 * an API key (which would outlive the grant), and a sign-in form the user's page did not send.
 */
export const NO_MINTING = 'openapi.yaml: createApiKey, rotateApiKey: called with an OAuth access token, 403 SCOPE_REQUIRED with details.reason api_key_required (the REST 403 body of the operation, ScopeRequiredError), since a key minted through a grant would outlive it; no key is made or rotated';
export const FORGED_FORM = 'OAuth 2.1 §7.6, RFC 6749 §10.12: the authorization server MUST implement CSRF protection for its authorization endpoint: a sign-in form sent without the CSRF token its page carried (none, a shorter one, a longer one) issues no code';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function activeKeyIds(s: Session): Promise<string[]> {
  const listed = await s.client.op('listApiKeys', {}, { query: { status: 'active', limit: '100' } });
  expectStatus(listed, 200, `${NO_MINTING}: GET /api/v1/keys?status=active`);
  return (listed.json.data as Array<{ id: string }>).map((k) => k.id).sort();
}

/**
 * The refusal a tool answers: SCOPE_REQUIRED for api_key_required, and, since a tool error
 * carries the REST error of the same call, a body the operation's documented 403 schema takes.
 */
function expectApiKeyRequired(s: Session, reply: Awaited<ReturnType<McpSession['callTool']>>, tool: string, path: string): void {
  const error = toolError(reply);
  const answered = JSON.stringify(reply.message?.result ?? reply.message?.error ?? null).slice(0, 240);
  expectThat(error?.code === 'SCOPE_REQUIRED' && error.details?.reason === 'api_key_required', `${NO_MINTING}: ${tool} with an access token answered ${answered}`);
  const asRest = { method: 'POST', url: path, status: 403, headers: { 'content-type': 'application/json' }, body: JSON.stringify(error) };
  const problems = s.validator.validate(asRest).filter((v) => v.rule === 'body').map((v) => v.message);
  expectEqual(problems, [], `${NO_MINTING}: ${tool}'s error held to the 403 body of POST ${path} (${answered})`);
}

export function oauthBoundaryChecks(): Check[] {
  return [
    {
      id: 'keys.oauth-cannot-mint',
      title: NO_MINTING,
      level: 'strict',
      covers: ['createApiKey', 'rotateApiKey'],
      requests: 20,
      run: async (s) => {
        const c = await client(s);
        const { value, verifier } = await code(s, c);
        const issued = await exchange(s, c, value, verifier);
        expectEqual(issued.status, 200, `${NO_MINTING}: the code exchange that gives the access token (${JSON.stringify(issued.body).slice(0, 200)})`);
        const made = await s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} not rotated by a token`, scopes: ['svc:read'] } });
        expectStatus(made, 201, `${NO_MINTING}: a key made with an API key, to try rotating`);
        try {
          const before = await activeKeyIds(s);
          const mcp = await McpSession.openWith(s, `Bearer ${issued.body.access_token}`);
          const minted = await mcp.callTool('createApiKey', await mcp.argumentsFor('createApiKey', {}, { name: `${s.config.runId} minted by a token`, scopes: ['svc:read'] }));
          expectApiKeyRequired(s, minted, 'createApiKey', '/api/v1/keys');
          expectApiKeyRequired(s, await mcp.callTool('rotateApiKey', { keyId: made.json.id }), 'rotateApiKey', `/api/v1/keys/${made.json.id}/rotate`);
          expectEqual(await activeKeyIds(s), before, `${NO_MINTING}: the active keys after the refused calls`);
        } finally {
          await s.client.op('revokeApiKey', { keyId: made.json.id }).catch(() => undefined);
        }
      },
    },
    {
      id: 'oauth.forged-sign-in',
      title: FORGED_FORM,
      level: 'strict',
      simulator: "fills in the simulator's sign-in page (its form: request_id, csrf_token and the CSRF cookie)",
      requests: 12,
      run: async (s) => {
        if (!s.control) s.skipBecause("needs the simulator's sign-in page: another server's form is its own");
        const c = await client(s);
        const p = pkce();
        const url = new URL(authorizeUrl(c.d, { response_type: 'code', client_id: c.clientId, redirect_uri: c.redirectUri, state: 'forged', code_challenge: p.challenge, code_challenge_method: 'S256', scope: 'svc:read', resource: c.d.resource }));
        const page = await redirectOf(s, `${url.pathname}${url.search}`);
        const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.body)?.[1];
        const [requestId, csrf] = [field('request_id'), field('csrf_token')];
        expectThat(page.status === 200 && requestId && csrf, `${FORGED_FORM}: the sign-in page for a valid request: got ${page.status} ${page.body.slice(0, 160)}`);
        const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        for (const [what, sent] of [['no csrf_token', ''], ['a shorter csrf_token', csrf!.slice(0, -1)], ['a longer csrf_token', `${csrf}0`]] as const) {
          const form = new URLSearchParams({ request_id: requestId!, csrf_token: sent, api_key: s.keys.readWrite as string, decision: 'approve' });
          const decided = await redirectOf(s, url.pathname, { method: 'POST', headers: { ...FORM, cookie }, body: form.toString() });
          const codeSent = decided.location?.searchParams.get('code');
          expectThat(decided.status >= 400 && !codeSent, `${FORGED_FORM}: the form with ${what} answered ${decided.status}${decided.location ? ` to ${decided.location.href.slice(0, 160)}` : ''}`);
        }
      },
    },
  ];
}
