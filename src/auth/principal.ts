import type { Account } from '../store/account.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { Scope } from '../credentials/api-key.js';

/**
 * Who is calling, whatever credential proved it: an API key (REST and /mcp) or an OAuth
 * access token (only on /mcp). The engine needs no more than this to count, check scope
 * and run an operation, so a new kind of credential needs no change in the engine.
 */
export interface Principal {
  account: Account;
  /** The credential's own rate-limit buckets: an API key's id, or an OAuth grant's id. */
  credentialId: string;
  scopes: readonly Scope[];
  /** Safe to log: never the secret itself. */
  hint: string;
  kind: 'api_key' | 'oauth_access_token';
  /** The key record, when the credential is an API key (key management needs it). */
  key?: ApiKeyRecord;
  /**
   * Why the credential no longer holds (revoked, rotated away, its grant ended), or undefined
   * while it does. Asked again when an operation runs, so a call that was authenticated before
   * a revocation (an MCP body still arriving, a long wait) is refused all the same.
   */
  revoked?: (simulatorNow: number) => string | undefined;
}

/**
 * Resolves a bearer credential presented on /mcp. Answers `null` when the value is not of
 * this verifier's kind (the next verifier is tried), a Principal when it is valid, or a
 * refusal with a message when it is of this kind but unusable (expired, revoked, foreign
 * audience): the resource server then answers 401 with its challenge.
 */
export type CredentialVerifier = (bearer: string, now: number) => Principal | { refused: string } | null;
