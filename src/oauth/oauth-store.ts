import type { Scope } from '../auth/api-key.js';
import { LruMap } from '../limits/lru-map.js';
import { expireClients } from './registration.js';

/** What the authorization server remembers, each secret only by its digest. */
export interface OAuthClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  issuedAt: number;
  /** The last time a token was issued to it; absent while it has never been used. */
  lastUsedAt?: number;
}

/** An authorization request shown on the sign-in page, waiting for Approve or Deny. */
export interface PendingAuthorization {
  id: string;
  csrf: string;
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge: string;
  scopes: Scope[];
  resource: string;
  expiresAt: number;
}

export interface AuthorizationCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string;
  scopes: Scope[];
  accountId: string;
  /** The API key typed on the sign-in page: the grant lives only as long as it does. */
  keyId?: string;
  expiresAt: number;
  /** Set once redeemed: a second redemption revokes this grant (RFC 9700 §4.2.4). */
  grantId: string | null;
}

/** What one sign-in granted: every access and refresh token descends from it. */
export interface Grant {
  id: string;
  accountId: string;
  clientId: string;
  /** The API key the user signed in with: revoking or rotating it ends the grant. */
  keyId?: string;
  scopes: Scope[];
  resource: string;
  revoked: boolean;
  createdAt?: number;
  /** The last token issued or accepted on /mcp. */
  lastUsedAt?: number;
  /** When its newest refresh token expires: past it, nothing of the grant can be used. */
  expiresAt?: number;
}

export interface AccessToken {
  grantId: string;
  scopes: Scope[];
  expiresAt: number;
  revoked: boolean;
}

export interface RefreshToken {
  grantId: string;
  expiresAt: number;
  /** A rotated-out token: presenting it again is a replay, and revokes the grant. */
  used: boolean;
}

/**
 * Every table is capped and forgets its least recently used entries beyond the cap, so no
 * flood of sign-ins, codes or refreshes can grow memory; caps sit far above honest use.
 * Registered clients are capped separately, by registration (see `registration.ts`).
 */
export const OAUTH_CAPS = {
  pending: 5_000,
  codes: 10_000,
  grants: 20_000,
  accessTokens: 50_000,
  refreshTokens: 100_000,
} as const;

/** Codes are kept this long past their expiry, so a late replay still revokes their grant. */
const CODE_REPLAY_MS = 3_600_000;
/** Expired records are swept at most once per virtual second, not on every write. */
const PRUNE_EVERY_MS = 1_000;

export class OAuthStore {
  readonly clients = new Map<string, OAuthClient>();
  readonly pending = new LruMap<string, PendingAuthorization>(OAUTH_CAPS.pending);
  /** By digest. */
  readonly codes = new LruMap<string, AuthorizationCode>(OAUTH_CAPS.codes);
  readonly grants = new LruMap<string, Grant>(OAUTH_CAPS.grants);
  /** By digest. */
  readonly accessTokens = new LruMap<string, AccessToken>(OAUTH_CAPS.accessTokens);
  /** By digest. */
  readonly refreshTokens = new LruMap<string, RefreshToken>(OAUTH_CAPS.refreshTokens);
  private prunedAt = Number.NEGATIVE_INFINITY;

  revokeGrant(grantId: string): void {
    const grant = this.grants.get(grantId);
    if (grant) grant.revoked = true;
  }

  /** Drops what has expired or was revoked; called on writes, at most once a virtual second. */
  prune(now: number): void {
    if (now >= this.prunedAt && now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    expireClients(this.clients, now);
    for (const [id, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(id);
    for (const [hash, c] of this.codes) if (c.expiresAt + CODE_REPLAY_MS <= now) this.codes.delete(hash);
    for (const [id, g] of this.grants) if (g.revoked || (g.expiresAt ?? Number.POSITIVE_INFINITY) <= now) this.grants.delete(id);
    for (const [hash, t] of this.accessTokens) if (t.expiresAt <= now || !this.grants.has(t.grantId)) this.accessTokens.delete(hash);
    for (const [hash, t] of this.refreshTokens) if (t.expiresAt <= now || !this.grants.has(t.grantId)) this.refreshTokens.delete(hash);
  }
}
