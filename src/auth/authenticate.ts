import { ApiError, validationError } from '../errors/api-error.js';
import type { Account } from '../store/account.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { bearerCredential } from './bearer.js';
import { API_KEY_PATTERN, type Scope } from '../credentials/api-key.js';
import type { CredentialVerifier, Principal } from './principal.js';

export interface Caller {
  account: Account;
  key: ApiKeyRecord;
}

const CHALLENGE = { 'www-authenticate': 'Bearer realm="content-service"' };

/**
 * Resolves `Authorization: Bearer <key>` to its account (spec, Authentication):
 * missing or not Bearer → 401 UNAUTHORIZED; malformed, unknown or revoked → 401 INVALID_API_KEY.
 */
export function authenticate(store: Store, authorization: string | undefined): Caller {
  // Adapters join repeated headers with ", ", and no bearer credential holds a comma: two
  // Authorization headers are refused rather than silently resolved to one of them.
  if (authorization?.includes(',')) {
    throw validationError([{ path: 'header.Authorization', message: 'must be sent once, with one credential' }]);
  }
  const presented = bearerCredential(authorization);
  if (presented === null) {
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      authorization ? 'The Authorization header must be "Bearer <API key>".' : 'Authentication required: send "Authorization: Bearer <API key>".',
      {},
      CHALLENGE,
    );
  }
  if (!API_KEY_PATTERN.test(presented)) {
    throw new ApiError(401, 'INVALID_API_KEY', 'The API key is malformed: it must be "svc_live_" followed by 40 hexadecimal characters.', { reason: 'malformed' }, CHALLENGE);
  }
  const key = store.findKey(presented);
  if (!key) throw new ApiError(401, 'INVALID_API_KEY', unknownKeyMessage(store.ownerTag, presented), { reason: 'unknown' }, CHALLENGE);
  return callerOfKey(store, key);
}

/** What a found key must still pass on every call: not revoked, its account still there. */
export function callerOfKey(store: Store, key: ApiKeyRecord): Caller {
  return { account: accountOfKey(store, key), key };
}

/** The account of a found key that still holds (the checks of `callerOfKey`), with nothing made. */
export function accountOfKey(store: Store, key: ApiKeyRecord): Account {
  if (key.revokedAt !== null) throw new ApiError(401, 'INVALID_API_KEY', 'The API key has been revoked.', { reason: 'revoked' }, CHALLENGE);
  const account = store.account(key.accountId);
  if (!account) throw new ApiError(401, 'INVALID_API_KEY', 'The API key is not recognised.', { reason: 'unknown' }, CHALLENGE);
  return account;
}

/** Behind a load balancer, a key that names another instance says so: the call was misrouted. */
function unknownKeyMessage(ownTag: string, presented: string): string {
  const named = presented.slice('svc_live_'.length, 'svc_live_'.length + 2);
  if (!ownTag || named === ownTag) return 'The API key is not recognised.';
  return `The API key is not recognised: it names instance ${Number.parseInt(named, 16)} (svc_live_${named}…), and this is instance ${Number.parseInt(ownTag, 16)}, which knows only its own accounts.`;
}

/** 403 SCOPE_REQUIRED naming the missing scope when the key lacks it (spec, Authentication 5). */
export function requireScope(caller: { readonly scopes: readonly Scope[] }, scope: Scope): void {
  if (!caller.scopes.includes(scope)) {
    throw new ApiError(403, 'SCOPE_REQUIRED', `This operation needs the ${scope} scope, which this key does not have.`, {
      requiredScope: scope,
      grantedScopes: caller.scopes,
    });
  }
}

/** The identity an API key proves: its own buckets, its scopes, its hint. */
export function keyPrincipal({ account, key }: Caller): Principal {
  return { account, credentialId: key.id, scopes: key.scopes, hint: key.hint, kind: 'api_key', key, revoked: keyRevoked };
}

/** A key principal's `revoked`: one function for every key, asked of the principal it belongs to. */
function keyRevoked(this: Principal): string | undefined {
  return this.key !== undefined && this.key.revokedAt !== null ? 'The API key has been revoked.' : undefined;
}

/**
 * A credential authenticated when its request began, checked again as its operation runs:
 * 401 INVALID_API_KEY once it has been revoked or rotated away meanwhile, or once the
 * simulation it was authenticated in has been reset or restored (its account is another
 * object now, and whatever the call wrote would not be kept).
 */
export function assertStillHolds(store: Store, principal: Principal, simulatorNow: number): void {
  if (store.account(principal.account.id) !== principal.account) {
    throw new ApiError(401, 'INVALID_API_KEY', 'The simulation was reset or restored while this call was in flight: nothing was done. Call again.', { reason: 'reset' }, CHALLENGE);
  }
  const why = principal.revoked?.(simulatorNow);
  if (why) throw new ApiError(401, 'INVALID_API_KEY', why, { reason: 'revoked' }, CHALLENGE);
}

/** API keys as a credential on /mcp: `svc_live_…` values only; anything else is another verifier's. */
export function apiKeyVerifier(store: Store): CredentialVerifier {
  return (bearer) => {
    if (!bearer.startsWith('svc_live_')) return null;
    try {
      return keyPrincipal(authenticate(store, `Bearer ${bearer}`));
    } catch (error) {
      if (error instanceof ApiError) return { refused: error.message };
      throw error;
    }
  };
}
