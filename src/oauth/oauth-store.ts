import type { Scope } from '../auth/api-key.js';

/** What the authorization server remembers, each secret only by its digest. */
export interface OAuthClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  issuedAt: number;
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
  expiresAt: number;
  /** Set once redeemed: a second redemption revokes this grant (RFC 9700 §4.2.4). */
  grantId: string | null;
}

/** What one sign-in granted: every access and refresh token descends from it. */
export interface Grant {
  id: string;
  accountId: string;
  clientId: string;
  scopes: Scope[];
  resource: string;
  revoked: boolean;
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

export class OAuthStore {
  readonly clients = new Map<string, OAuthClient>();
  readonly pending = new Map<string, PendingAuthorization>();
  /** By digest. */
  readonly codes = new Map<string, AuthorizationCode>();
  readonly grants = new Map<string, Grant>();
  /** By digest. */
  readonly accessTokens = new Map<string, AccessToken>();
  /** By digest. */
  readonly refreshTokens = new Map<string, RefreshToken>();

  revokeGrant(grantId: string): void {
    const grant = this.grants.get(grantId);
    if (grant) grant.revoked = true;
  }

  /** Drops what has expired; called on each write so the maps stay bounded by live records. */
  prune(now: number): void {
    for (const [id, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(id);
    for (const [hash, c] of this.codes) if (c.expiresAt + 3_600_000 <= now) this.codes.delete(hash);
    for (const [hash, t] of this.accessTokens) if (t.expiresAt <= now) this.accessTokens.delete(hash);
    for (const [hash, t] of this.refreshTokens) if (t.expiresAt <= now) this.refreshTokens.delete(hash);
  }
}
