import type { ApiModel } from '../model.js';
import { ListBuilds, ListTransactions, ReadBalance } from './accounts.js';
import { GetBuild } from './builds.js';
import type { ModelCommand } from './common.js';

/** The reads that end every sequence: each account's balance, every build it made, and (strict) its lists. */
export function finalReads(model: ApiModel): ModelCommand[] {
  return model.accounts.flatMap((account) => [
    new ReadBalance(account.label, 'readWrite', 'rest'),
    ...account.builds.map((_, i) => new GetBuild(account.label, i, 'readWrite', 'rest')),
    ...(model.strict ? [new ListBuilds(account.label), new ListTransactions(account.label)] : []),
  ]);
}
