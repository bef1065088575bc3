import { requireScope } from '../auth/authenticate.js';
import type { Scope } from '../credentials/api-key.js';
import { toIso } from '../clock/clock.js';
import { ApiError } from '../errors/api-error.js';
import type { Account } from '../store/account.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { IssuedKey, Store } from '../store/store.js';

/** Active keys an account may hold at once (inferred; the spec states no count). */
export const MAX_ACTIVE_KEYS = 25;

/** Whoever asks: the scopes it holds, and whether it is an API key or an assistant's OAuth token. */
type Caller = { readonly scopes: readonly Scope[]; readonly kind?: 'api_key' | 'oauth_access_token' };

export interface KeyCreateInput {
  name: string;
  scopes: Scope[];
}

export function findApiKey(account: Account, keyId: string): ApiKeyRecord {
  return account.keys.require(keyId);
}

/**
 * A key may only hand out scopes it holds itself: otherwise a read-only key could mint
 * itself a writer. 403 SCOPE_REQUIRED names the first scope the caller lacks.
 */
function assertCanGrant(caller: Caller, scopes: readonly Scope[]): void {
  for (const scope of scopes) requireScope(caller, scope);
}

/**
 * Keys are minted with an API key only (the spec creates them in the web app). An assistant's
 * OAuth access token gets 403: a key it minted would outlive its grant, and revoking the grant
 * must end the assistant's access. Revoking a key stays open to it: that ends access, never extends it.
 */
function assertMayMint(caller: Caller): void {
  if (caller.kind !== 'oauth_access_token') return;
  throw new ApiError(403, 'SCOPE_REQUIRED', 'API keys are created and rotated with an API key: an OAuth access token cannot mint a credential that would outlive its grant.', {
    requiredScope: 'svc:write',
    grantedScopes: caller.scopes,
    reason: 'api_key_required',
  });
}

function assertRoomForAnotherKey(account: Account): void {
  let active = 0;
  for (const key of account.keys.values()) if (key.revokedAt === null) active++;
  if (active >= MAX_ACTIVE_KEYS) {
    throw new ApiError(409, 'CONFLICT', `An account may hold at most ${MAX_ACTIVE_KEYS} active keys; revoke one first.`, {
      activeKeys: active,
      maxActiveKeys: MAX_ACTIVE_KEYS,
    });
  }
}

export function createApiKey(store: Store, account: Account, caller: Caller, input: KeyCreateInput, now: number): IssuedKey {
  assertMayMint(caller);
  const scopes = [...new Set(input.scopes)];
  assertCanGrant(caller, scopes);
  assertRoomForAnotherKey(account);
  return store.issueKey(account, input.name.trim(), scopes, now);
}

/**
 * Rotation issues a new key with the same name and scopes and revokes the old one at once:
 * a leaked key must stop working the moment it is rotated. For a switch without downtime,
 * create a second key, deploy it, then revoke the first.
 */
export function rotateApiKey(store: Store, account: Account, caller: Caller, keyId: string, now: number): IssuedKey {
  assertMayMint(caller);
  const old = findApiKey(account, keyId);
  if (old.revokedAt !== null) {
    throw new ApiError(409, 'CONFLICT', 'A revoked key cannot be rotated; create a new key instead.', { keyId, revokedAt: toIso(old.revokedAt) });
  }
  assertCanGrant(caller, old.scopes);
  // The old key is revoked in the same step, so the count of active keys stays the same.
  const issued = store.issueKey(account, old.name, old.scopes, now, old.id);
  store.revokeKey(old, now);
  old.replacedById = issued.record.id;
  return issued;
}

/** Revocation is immediate and idempotent; a key may revoke itself (its next call is 401). */
export function revokeApiKey(store: Store, account: Account, keyId: string, now: number): ApiKeyRecord {
  const key = findApiKey(account, keyId);
  store.revokeKey(key, now);
  return key;
}
