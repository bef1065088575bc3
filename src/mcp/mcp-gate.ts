import type { Principal } from '../auth/principal.js';
import { guessingAddress } from '../engine/request-facts.js';
import { ApiError } from '../errors/api-error.js';
import { counted } from '../errors/counted.js';
import type { Simulator } from '../simulator.js';
import { authenticateMcp, insufficientScope, type AuthOutcome, type ChallengeParams, type McpAuthOptions } from './mcp-auth.js';
import { plainJson, type PlainAnswer } from './plain-answer.js';
import type { ToolDefinition } from './tool-catalog.js';
import { WAIT_FOR_BUILD } from './wait-for-build.js';

/**
 * The checks every /mcp request passes before its messages are served, on plain values, so
 * the Fetch path and the stateless fast path refuse alike: the bearer (failed attempts
 * counted per address), the scope a tool needs, and each message's place in the rate limits.
 */
export interface McpGate {
  /** `remoteAddress`, when given, counts failed authentications per address as the service API does. */
  authenticate(authorization: string | null, httpMethod: string, remoteAddress: string | undefined, extra: ChallengeParams): AuthOutcome;
  /** A tool whose scope an OAuth access token lacks is refused before any session or engine work. */
  scopeRefusal(body: unknown, principal: Principal, extra: ChallengeParams): PlainAnswer | undefined;
  /** A message counts in the credential's and the account's buckets like one REST request. */
  rateLimited(principal: Principal): PlainAnswer | undefined;
}

export function createMcpGate(simulator: Simulator, auth: McpAuthOptions, tools: Map<string, ToolDefinition>): McpGate {
  return {
    /**
     * An address that used up its minute of failed attempts gets 429 before its credential is
     * looked at. In-process and loopback callers are not counted, as on REST.
     */
    authenticate(authorization, httpMethod, remoteAddress, extra) {
      const now = simulator.clock.now();
      const address = remoteAddress === undefined ? undefined : guessingAddress({ method: httpMethod, url: '/mcp', headers: {}, remoteAddress });
      const { failedAuth } = simulator.internal.guessing;
      if (address !== undefined) {
        try {
          failedAuth.check(address, now);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return { answer: apiErrorAnswer(error) };
        }
      }
      const authenticated = authenticateMcp(authorization, auth, now, extra);
      if (address !== undefined && 'answer' in authenticated && authenticated.answer.status === 401) failedAuth.count(address, now);
      return authenticated;
    },

    scopeRefusal(body, principal, extra) {
      // Only an OAuth client can step up to a wider scope; an API key cannot, so its refusal is
      // the engine's 403 SCOPE_REQUIRED as an isError result, which every client hands the model.
      if (principal.kind !== 'oauth_access_token') return undefined;
      for (const message of Array.isArray(body) ? body : [body]) {
        if (!message || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') continue;
        const name = (message as { params?: { name?: unknown } }).params?.name;
        const scope = name === WAIT_FOR_BUILD.name ? 'svc:read' : typeof name === 'string' ? tools.get(name)?.scope : undefined;
        if (scope && !principal.scopes.includes(scope)) return insufficientScope(extra, principal, scope, name as string);
      }
      return undefined;
    },

    rateLimited(principal) {
      const decision = simulator.internal.limiter.take(principal.credentialId, principal.account.id, 'default', principal.account.now(simulator.clock.now()), principal.account.clock !== null);
      if (decision.allowed) return undefined;
      const { state, retryAfterSeconds } = decision;
      return plainJson(
        429,
        { error: `Rate limit of ${counted(state.limit, 'request')} a minute exceeded; retry in ${retryAfterSeconds} s.`, code: 'RATE_LIMITED', details: { bucket: state.bucket, limit: state.limit, retryAfterSeconds } },
        { 'retry-after': String(retryAfterSeconds), 'x-ratelimit-limit': String(state.limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(state.resetAt) },
      );
    },
  };
}

/** An engine refusal (the guessing limit, the memory budget) in the spec's error shape. */
export function apiErrorAnswer(error: ApiError): PlainAnswer {
  return plainJson(error.status, { error: error.message, code: error.code, details: error.details }, error.headers);
}
