import { ApiError } from '../errors/api-error.js';
import type { Account } from '../store/account.js';
import type { TransactionRecord, TransactionType } from '../store/records.js';
import { buildCharge, buildRefund, describedTransaction, type ChargedBuild, type NewTransaction } from '../store/transaction-record.js';
import { counted } from '../errors/counted.js';

/**
 * The token ledger: every change of an account's balance is a transaction, so the balance
 * always equals the sum of the ledger and `lifetimeUsed` is spending net of refunds.
 */
/** How an entry keeps its description: as given, or derived from its build (transaction-record.ts). */
type Entry = (t: NewTransaction) => TransactionRecord;
const described = (description: string): Entry => (t) => describedTransaction(t, description);

function book(account: Account, type: TransactionType, amount: number, entry: Entry, buildId: string | null, at: number, bundleId?: string): TransactionRecord {
  account.balance += amount;
  return account.transactions.add(entry({ id: account.newId(), type, amount, balanceAfter: account.balance, buildId, ...(bundleId === undefined ? {} : { bundleId }), createdAt: at }));
}

/** Tokens bought (a catalogue bundle, or the seeded starting balance without one). */
export function purchase(account: Account, tokens: number, description: string, at: number, bundleId?: string): TransactionRecord {
  account.lifetimePurchased += tokens;
  return book(account, 'purchase', tokens, described(description), null, at, bundleId);
}

export function grant(account: Account, tokens: number, description: string, at: number): TransactionRecord {
  return book(account, 'grant', tokens, described(description), null, at);
}

/** Throws 402 INSUFFICIENT_TOKENS with required, available and shortfall (spec, Errors). */
export function assertAffordable(account: Account, cost: number, what = 'This build'): void {
  if (account.balance < cost) {
    const shortfall = cost - account.balance;
    throw new ApiError(
      402,
      'INSUFFICIENT_TOKENS',
      `${what} costs ${counted(cost, 'token')} and the balance is ${account.balance}: ${shortfall} more needed.`,
      { required: cost, available: account.balance, shortfall },
    );
  }
}

/** Spending: refused with 402 when short, else booked and counted in lifetimeUsed. */
function spend(account: Account, type: 'build_charge' | 'image_charge', cost: number, what: string, entry: Entry, buildId: string | null, at: number): TransactionRecord {
  assertAffordable(account, cost, what);
  account.lifetimeUsed += cost;
  return book(account, type, -cost, entry, buildId, at);
}

/** Described "Build <id>: <pages> × <kind>"; the entry reads its build's fields (transaction-record.ts). */
export function chargeBuild(account: Account, build: ChargedBuild, at: number): TransactionRecord {
  return spend(account, 'build_charge', build.cost, 'This build', (t) => buildCharge(t, build), build.id, at);
}

/** An image generated outside a build (POST /images); not tied to a build, so buildId is null. */
export function chargeImage(account: Account, cost: number, description: string, at: number): TransactionRecord {
  return spend(account, 'image_charge', cost, 'This image', described(description), null, at);
}

/** Described "Refund of failed build <id>". */
export function refundBuild(account: Account, cost: number, buildId: string, at: number): TransactionRecord {
  account.lifetimeUsed -= cost;
  return book(account, 'build_refund', cost, (t) => buildRefund({ ...t, buildId }), buildId, at);
}
