import type { Scope } from '../credentials/api-key.js';

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
