import { bearerCredential } from '../auth/bearer.js';
import { SCOPES, type Scope } from '../credentials/api-key.js';
import type { CredentialVerifier, Principal } from '../auth/principal.js';
import { plainJson, type PlainAnswer } from './plain-answer.js';

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

/** The `WWW-Authenticate` parameters of this request's challenges, asked for only when one is sent. */
export type ChallengeParams = () => Record<string, string>;

export type AuthOutcome = { principal: Principal } | { answer: PlainAnswer };

/**
 * `header` is the Authorization value (all of them joined, when repeated); `extra` the
 * challenge parameters the options give for this request.
 */
export function authenticateMcp(header: string | null, options: McpAuthOptions, now: number, extra: ChallengeParams): AuthOutcome {
  const bearer = bearerCredential(header);
  if (bearer === null) {
    const message = header ? 'The Authorization header must be "Bearer <credential>".' : 'Authentication required: send "Authorization: Bearer <API key or access token>".';
    const params: Record<string, string> = header ? { error: 'invalid_request' } : { scope: SCOPES.join(' ') };
    return { answer: challenge(extra, 401, 'UNAUTHORIZED', message, params) };
  }
  for (const verify of options.verifiers) {
    const outcome = verify(bearer, now);
    if (outcome === null) continue;
    if ('refused' in outcome) return { answer: challenge(extra, 401, 'INVALID_API_KEY', outcome.refused, { error: 'invalid_token' }) };
    return { principal: outcome };
  }
  return { answer: challenge(extra, 401, 'INVALID_API_KEY', 'The credential is not recognised.', { error: 'invalid_token' }) };
}

/** 401 for a credential that held when its request began and was revoked before its operation ran. */
export function revokedChallenge(extra: ChallengeParams, message: string): PlainAnswer {
  return challenge(extra, 401, 'INVALID_API_KEY', message, { error: 'invalid_token' }, { reason: 'revoked' });
}

/** 403 with the scopes to ask for: those held plus the one needed, so a client can step up. */
export function insufficientScope(extra: ChallengeParams, principal: Principal, needed: Scope, tool: string): PlainAnswer {
  const scope = [...new Set([...principal.scopes, needed])].join(' ');
  return challenge(extra, 403, 'SCOPE_REQUIRED', `The tool ${tool} needs the ${needed} scope, which this credential does not have.`, {
    error: 'insufficient_scope',
    scope,
  }, { requiredScope: needed, grantedScopes: principal.scopes, tool });
}

function challenge(
  extra: ChallengeParams,
  status: number,
  code: string,
  message: string,
  params: Record<string, string>,
  details: Record<string, unknown> = {},
): PlainAnswer {
  const all = { realm: 'content-service', ...params, ...extra() };
  const header = `Bearer ${Object.entries(all)
    .map(([k, v]) => `${k}="${v.replace(/["\\]/g, '')}"`)
    .join(', ')}`;
  return plainJson(status, { error: message, code, details }, { 'www-authenticate': header });
}
