import { toIso } from '../clock/clock.js';
import { ApiError } from '../errors/api-error.js';
import type { Store } from '../store/store.js';
import type { Grant, OAuthStore } from './oauth-store.js';
import { randomSecret } from './secrets.js';

/**
 * Grants, as the account that made them sees them: each is tied to the API key typed on the
 * sign-in page, and lives no longer than that key. An account holds a bounded number of
 * live grants; its least recently used one gives way to a new sign-in beyond that.
 */
export const MAX_GRANTS_PER_ACCOUNT = 100;

export interface GrantInput {
  accountId: string;
  clientId: string;
  keyId: string;
  scopes: Grant['scopes'];
  resource: string;
}

export function createGrant(oauth: OAuthStore, input: GrantInput, now: number): Grant {
  const own = [...oauth.grants.values()].filter((g) => g.accountId === input.accountId && !g.revoked);
  // Map order is least recently used first.
  for (const old of own.slice(0, Math.max(0, own.length - MAX_GRANTS_PER_ACCOUNT + 1))) oauth.revokeGrant(old.id);
  const grant: Grant = { id: randomSecret('grant_'), ...input, revoked: false, createdAt: now, lastUsedAt: now };
  oauth.grants.set(grant.id, grant);
  return grant;
}

/**
 * Why the grant can no longer be used, or null: revoked, expired, or its API key revoked
 * (or rotated, which revokes the old key). A grant found dead is revoked for good.
 */
/** The time of an account (its own clock, if it has one): what its codes, grants and tokens expire by. */
export function accountNow(accounts: Store, accountId: string, simulatorNow: number): number {
  const account = accounts.account(accountId);
  return account ? account.now(simulatorNow) : simulatorNow;
}

export function grantRefusal(grant: Grant, accounts: Store, now: number): string | null {
  if (grant.revoked) return 'The grant has been revoked.';
  if (grant.expiresAt !== undefined && grant.expiresAt <= now) return 'The grant has expired: sign in again.';
  const key = grant.keyId === undefined ? undefined : accounts.account(grant.accountId)?.keys.get(grant.keyId);
  if (!key || key.revokedAt !== null) {
    grant.revoked = true;
    return 'The API key this grant was signed in with has been revoked or rotated: sign in again.';
  }
  return null;
}

/** The account's live grants, most recently used first. */
export function liveGrants(oauth: OAuthStore, accounts: Store, accountId: string, now: number): Grant[] {
  const live = [...oauth.grants.values()].filter((g) => g.accountId === accountId && grantRefusal(g, accounts, now) === null);
  return live.sort((a, b) => (b.lastUsedAt ?? 0) - (a.lastUsedAt ?? 0));
}

/** Revokes one of the account's grants: its access and refresh tokens stop at once. Idempotent. */
export function revokeAccountGrant(oauth: OAuthStore, accounts: Store, accountId: string, grantId: string, now: number): Grant {
  const grant = oauth.grants.get(grantId);
  if (!grant || grant.accountId !== accountId) throw new ApiError(404, 'NOT_FOUND', `No OAuth grant ${grantId}.`, { grantId });
  grantRefusal(grant, accounts, now);
  grant.revoked = true;
  return grant;
}

/** A grant as openapi.yaml's OAuthGrant shows it: never a token. */
export function grantJson(grant: Grant, oauth: OAuthStore) {
  const at = (ms: number | undefined) => toIso(ms ?? 0);
  return {
    id: grant.id,
    clientId: grant.clientId,
    clientName: oauth.clients.get(grant.clientId)?.clientName ?? null,
    keyId: grant.keyId ?? null,
    scopes: grant.scopes,
    status: grant.revoked ? 'revoked' : 'active',
    createdAt: at(grant.createdAt),
    lastUsedAt: at(grant.lastUsedAt),
    expiresAt: at(grant.expiresAt),
  };
}
