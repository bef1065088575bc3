import { findDeliverable, type BuildEnvironment, type DeliverableView } from '../builds/builds-service.js';
import { ApiError } from '../errors/api-error.js';
import type { Account } from '../store/account.js';
import type { Page } from '../store/ordered-collection.js';
import type { ShareRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

/**
 * Sharing a deliverable by a link anyone can open until it is revoked or expires. The
 * token is the only secret: 48 hex characters (192 bits) from the cryptographic generator
 * (from the seed only with deterministic secrets), so nobody derives it. The token is kept
 * in the share record, so its owner can list the link again, and indexed in the Store,
 * so the public view finds it without knowing the account.
 */

export const SHARE_TOKEN_HEX_LENGTH = 48;

export interface ShareEnvironment {
  seed: string;
  store: Store;
  builds: BuildEnvironment;
}

export function createShare(env: ShareEnvironment, account: Account, deliverableId: string, expiresInSeconds: number | undefined, now: number): ShareRecord {
  // Only a deliverable its owner can read (its build completed) can be shared.
  findDeliverable(env.builds, account, deliverableId, now);
  const id = account.newId();
  const token = env.store.ownedSecretHex(SHARE_TOKEN_HEX_LENGTH);
  if (env.store.shareTokens.has(token)) throw new Error('share token collision'); // 2^-192: a bug, not bad luck
  const share: ShareRecord = {
    id,
    deliverableId,
    token,
    createdAt: now,
    expiresAt: expiresInSeconds === undefined ? null : now + expiresInSeconds * 1000,
    revokedAt: null,
  };
  account.shares.add(share);
  env.store.shareTokens.set(token, { accountId: account.id, shareId: id });
  return share;
}

/** The shares of one deliverable, newest first, revoked and expired ones included. */
export function pageShares(env: ShareEnvironment, account: Account, deliverableId: string, limit: number, cursor: string | undefined, now: number): Page<ShareRecord> {
  findDeliverable(env.builds, account, deliverableId, now);
  return account.shares.pageBy('deliverableId', deliverableId, limit, cursor);
}

/** Revokes a share; revoking it again changes nothing (the first revocation time stays). */
export function revokeShare(account: Account, shareId: string, now: number): ShareRecord {
  const share = account.shares.require(shareId);
  share.revokedAt ??= now;
  return share;
}

export function isShareActive(share: ShareRecord, now: number): boolean {
  return share.revokedAt === null && (share.expiresAt === null || now < share.expiresAt);
}

/** What a token opens: the deliverable, while the share is neither revoked nor expired. */
export function openSharedDeliverable(env: ShareEnvironment, token: string, simulatorNow: number): DeliverableView {
  const entry = env.store.shareTokens.get(token);
  const account = entry ? env.store.account(entry.accountId) : undefined;
  // The link is looked up first; then its account's clock says whether it has expired.
  const now = account ? account.now(simulatorNow) : simulatorNow;
  const share = entry && account ? account.shares.get(entry.shareId) : undefined;
  // Unknown, revoked and expired all answer alike: a link tells nothing about why it is dead.
  if (!account || !share || !isShareActive(share, now)) {
    throw new ApiError(404, 'NOT_FOUND', 'No shared deliverable at this link: it is unknown, revoked or expired.', { resource: 'shared deliverable' });
  }
  return findDeliverable(env.builds, account, share.deliverableId, now);
}
