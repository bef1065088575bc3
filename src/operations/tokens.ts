import { TOKEN_BUNDLES, type TokenBundle } from '../ledger/bundles.js';
import { purchaseBundle } from '../ledger/purchases.js';
import type { TransactionRecord, TransactionType } from '../store/records.js';
import type { ServiceHandler } from './context.js';
import { balanceJson, transactionJson, pageJson } from './serialize.js';

// Every export of this module is a handler, registered by its operationId.

/** A ledger entry; `bundleId` names what a catalogue purchase bought (null otherwise). */
function ledgerEntryJson(t: TransactionRecord) {
  return { ...transactionJson(t), bundleId: t.bundleId ?? null };
}

function bundleJson(b: TokenBundle) {
  return { id: b.id, name: b.name, tokens: b.tokens, priceCents: b.priceCents, currency: b.currency };
}

export const getTokenBalance: ServiceHandler = ({ account }) => ({ status: 200, json: balanceJson(account) });

export const listTokenTransactions: ServiceHandler = ({ account, params }) => {
  const { limit, cursor, type } = params.query as { limit: number; cursor?: string; type?: TransactionType };
  const page = type ? account.transactions.pageBy('type', type, limit, cursor) : account.transactions.page(limit, cursor);
  return { status: 200, json: pageJson(page, ledgerEntryJson) };
};

export const getTokenTransaction: ServiceHandler = ({ account, params }) => {
  return { status: 200, json: ledgerEntryJson(account.transactions.require(params.path.transactionId as string)) };
};

export const listTokenBundles: ServiceHandler = () => ({ status: 200, json: { data: TOKEN_BUNDLES.map(bundleJson) } });

export const purchaseTokens: ServiceHandler = ({ account, body, params, now }) => {
  const idempotencyKey = (params.header['Idempotency-Key'] as string | undefined) ?? null;
  const { replayed, transaction, bundle } = purchaseBundle(account, (body as { bundleId: string }).bundleId, idempotencyKey, now);
  const json = {
    transaction: ledgerEntryJson(transaction),
    bundle: bundleJson(bundle),
    balance: balanceJson(account),
    ...(replayed ? { idempotent: true } : {}),
  };
  return { status: replayed ? 200 : 201, json, headers: { location: `/api/v1/tokens/transactions/${transaction.id}` } };
};
