import { ApiError, notFound } from '../errors/api-error.js';
import type { Account } from '../store/account.js';
import type { TransactionRecord } from '../store/records.js';
import { findBundle, type TokenBundle } from './bundles.js';
import { purchase } from './ledger.js';
import { counted } from '../errors/counted.js';

export interface PurchaseResult {
  replayed: boolean;
  transaction: TransactionRecord;
  bundle: TokenBundle;
}

/**
 * Buys a bundle: one `purchase` transaction, the balance and lifetimePurchased grow by its
 * tokens. An Idempotency-Key reused within 24 hours replays the first purchase and charges
 * nothing, as a payment API does; reused for another bundle it is a 409, since replaying a
 * different purchase than the one asked for would mislead the client.
 */
export function purchaseBundle(account: Account, bundleId: string, idempotencyKey: string | null, now: number): PurchaseResult {
  const bundle = findBundle(bundleId);
  if (!bundle) throw notFound('token bundle', bundleId);
  if (idempotencyKey !== null) {
    const earlierId = account.purchaseIdempotency.find(idempotencyKey, now);
    const earlier = earlierId ? account.transactions.get(earlierId) : undefined;
    if (earlier) {
      if (earlier.bundleId !== bundle.id) {
        throw new ApiError(409, 'CONFLICT', `This Idempotency-Key was already used to buy the ${earlier.bundleId} bundle; use a new key for another purchase.`, {
          idempotencyKey,
          bundleId: earlier.bundleId,
          transactionId: earlier.id,
        });
      }
      return { replayed: true, transaction: earlier, bundle };
    }
  }
  const transaction = purchase(account, bundle.tokens, `Token bundle: ${bundle.name}, ${counted(bundle.tokens, 'token')}`, now, bundle.id);
  if (idempotencyKey !== null) account.purchaseIdempotency.remember(idempotencyKey, transaction.id, now);
  return { replayed: false, transaction, bundle };
}
