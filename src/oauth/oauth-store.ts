import { ChangeCapture } from '../store/change-capture.js';
import { CapturedLruMap } from './captured-table.js';
import { expireClients } from './registration.js';
import type { AccessToken, AuthorizationCode, Grant, OAuthClient, PendingAuthorization, RefreshToken } from './oauth-records.js';

export type { AccessToken, AuthorizationCode, Grant, OAuthClient, PendingAuthorization, RefreshToken };

/** The OAuth tables as plain JSON: what a saved simulation writes (secrets only by their digest). */
export interface SavedOAuth {
  clients: OAuthClient[];
  pending: PendingAuthorization[];
  codes: Array<[string, AuthorizationCode]>;
  grants: Grant[];
  accessTokens: Array<[string, AccessToken]>;
  refreshTokens: Array<[string, RefreshToken]>;
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
  /** An account's time (its own clock, if it has one): what its codes, grants and tokens expire by. */
  accountNow: (accountId: string, simulatorNow: number) => number = (_accountId, simulatorNow) => simulatorNow;
  readonly clients: Map<string, OAuthClient>;
  readonly pending: CapturedLruMap<PendingAuthorization>;
  /** By digest. */
  readonly codes: CapturedLruMap<AuthorizationCode>;
  readonly grants: CapturedLruMap<Grant>;
  /** By digest. */
  readonly accessTokens: CapturedLruMap<AccessToken>;
  /** By digest. */
  readonly refreshTokens: CapturedLruMap<RefreshToken>;
  private prunedAt = Number.NEGATIVE_INFINITY;

  /** `capture`: the store's, so every change to these tables reaches the write-ahead log when one is kept. */
  constructor(capture: ChangeCapture = new ChangeCapture()) {
    // Clients are capped by registration (see registration.ts), not here.
    this.clients = new CapturedLruMap(Number.POSITIVE_INFINITY, capture, 'clients');
    this.pending = new CapturedLruMap(OAUTH_CAPS.pending, capture, 'pending');
    this.codes = new CapturedLruMap(OAUTH_CAPS.codes, capture, 'codes');
    this.grants = new CapturedLruMap(OAUTH_CAPS.grants, capture, 'grants', ['lastUsedAt']);
    this.accessTokens = new CapturedLruMap(OAUTH_CAPS.accessTokens, capture, 'accessTokens');
    this.refreshTokens = new CapturedLruMap(OAUTH_CAPS.refreshTokens, capture, 'refreshTokens');
  }

  /**
   * Every table as plain JSON, less the records that name one gone since (a client expired, a
   * grant let go by its table's cap): the server ignores them, and a restore refuses them.
   */
  save(): SavedOAuth {
    return {
      clients: [...this.clients.values()],
      pending: [...this.pending.values()].filter((p) => this.clients.has(p.clientId)),
      codes: [...this.codes].filter(([, code]) => this.clients.has(code.clientId)),
      grants: [...this.grants.values()],
      accessTokens: [...this.accessTokens].filter(([, token]) => this.grants.has(token.grantId)),
      refreshTokens: [...this.refreshTokens].filter(([, token]) => this.grants.has(token.grantId)),
    };
  }

  /** Replaces every table with a saved one's records; the caller has checked them. */
  restore(saved: SavedOAuth): void {
    this.clear();
    for (const client of saved.clients) this.clients.set(client.clientId, client);
    for (const pending of saved.pending) this.pending.set(pending.id, pending);
    for (const [digest, code] of saved.codes) this.codes.set(digest, code);
    for (const grant of saved.grants) this.grants.set(grant.id, grant);
    for (const [digest, token] of saved.accessTokens) this.accessTokens.set(digest, token);
    for (const [digest, token] of saved.refreshTokens) this.refreshTokens.set(digest, token);
  }

  clear(): void {
    for (const table of [this.clients, this.pending, this.codes, this.grants, this.accessTokens, this.refreshTokens]) table.clear();
  }

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
    for (const [hash, c] of this.codes) if (c.expiresAt + CODE_REPLAY_MS <= this.accountNow(c.accountId, now)) this.codes.delete(hash);
    for (const [id, g] of this.grants) if (g.revoked || (g.expiresAt ?? Number.POSITIVE_INFINITY) <= this.accountNow(g.accountId, now)) this.grants.delete(id);
    const expired = (t: { grantId: string; expiresAt: number }) => {
      const grant = this.grants.get(t.grantId);
      return !grant || t.expiresAt <= this.accountNow(grant.accountId, now);
    };
    for (const [hash, t] of this.accessTokens) if (expired(t)) this.accessTokens.delete(hash);
    for (const [hash, t] of this.refreshTokens) if (expired(t)) this.refreshTokens.delete(hash);
  }
}
