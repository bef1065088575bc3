import { bearerCredential } from '../auth/bearer.js';
import { SCOPES, type Scope } from '../credentials/api-key.js';
import type { CredentialVerifier, Principal } from '../auth/principal.js';

/**
 * The resource server's side of /mcp: who the bearer is, and the `WWW-Authenticate`
 * challenges that tell a client what to do (RFC 6750 §3; the MCP scope step-up).
 *
 * Seam for more kinds of credential: `verifiers` are tried in order; an OAuth
 * authorization server adds its access-token verifier, and `challengeParams` adds
 * `resource_metadata="…"` (RFC 9728) to every challenge.
 */
export interface McpAuthOptions {
  verifiers: CredentialVerifier[];
  /** Extra `WWW-Authenticate` parameters, e.g. `{ resource_metadata: '<base>/.well-known/oauth-protected-resource/mcp' }`. */
  challengeParams?: (request: Request) => Record<string, string>;
}

export type AuthOutcome = { principal: Principal } | { response: Response };

export function authenticateMcp(request: Request, options: McpAuthOptions, now: number): AuthOutcome {
  const header = request.headers.get('authorization');
  const bearer = bearerCredential(header);
  if (bearer === null) {
    const message = header ? 'The Authorization header must be "Bearer <credential>".' : 'Authentication required: send "Authorization: Bearer <API key or access token>".';
    const params: Record<string, string> = header ? { error: 'invalid_request' } : { scope: SCOPES.join(' ') };
    return { response: challenge(request, options, 401, 'UNAUTHORIZED', message, params) };
  }
  for (const verify of options.verifiers) {
    const outcome = verify(bearer, now);
    if (outcome === null) continue;
    if ('refused' in outcome) return { response: challenge(request, options, 401, 'INVALID_API_KEY', outcome.refused, { error: 'invalid_token' }) };
    return { principal: outcome };
  }
  return { response: challenge(request, options, 401, 'INVALID_API_KEY', 'The credential is not recognised.', { error: 'invalid_token' }) };
}

/** 401 for a credential that held when its request began and was revoked before its operation ran. */
export function revokedChallenge(request: Request, options: McpAuthOptions, message: string): Response {
  return challenge(request, options, 401, 'INVALID_API_KEY', message, { error: 'invalid_token' }, { reason: 'revoked' });
}

/** 403 with the scopes to ask for: those held plus the one needed, so a client can step up. */
export function insufficientScope(request: Request, options: McpAuthOptions, principal: Principal, needed: Scope, tool: string): Response {
  const scope = [...new Set([...principal.scopes, needed])].join(' ');
  return challenge(request, options, 403, 'SCOPE_REQUIRED', `The tool ${tool} needs the ${needed} scope, which this credential does not have.`, {
    error: 'insufficient_scope',
    scope,
  }, { requiredScope: needed, grantedScopes: principal.scopes, tool });
}

function challenge(
  request: Request,
  options: McpAuthOptions,
  status: number,
  code: string,
  message: string,
  params: Record<string, string>,
  details: Record<string, unknown> = {},
): Response {
  const all = { realm: 'content-service', ...params, ...options.challengeParams?.(request) };
  const header = `Bearer ${Object.entries(all)
    .map(([k, v]) => `${k}="${v.replace(/["\\]/g, '')}"`)
    .join(', ')}`;
  return new Response(JSON.stringify({ error: message, code, details }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': header },
  });
}
