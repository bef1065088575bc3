import type { TransactionType } from '../store/records.js';
import type { ServiceHandler } from './context.js';
import { balanceJson, transactionJson } from './serialize.js';

export const getTokenBalance: ServiceHandler = ({ account }) => ({ status: 200, json: balanceJson(account) });

export const listTokenTransactions: ServiceHandler = ({ account, params }) => {
  const { limit, cursor, type } = params.query as { limit: number; cursor?: string; type?: TransactionType };
  const page = account.transactions.page(limit, cursor, type ? (t) => t.type === type : undefined);
  return { status: 200, json: { data: page.data.map(transactionJson), nextCursor: page.nextCursor } };
};
