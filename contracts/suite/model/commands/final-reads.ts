import type { ApiModel } from '../model.js';
import { ListBuilds, ListTransactions, ReadBalance } from './accounts.js';
import { GetBuild } from './builds.js';
import type { ModelCommand } from './common.js';
import { UseKey } from './keys.js';

/**
 * The reads that end every sequence: each account's balance, every build it made, and
 * (strict) its lists, and a read with every key the sequence made (over MCP too, where
 * there is MCP), which a revoked or rotated key must not pass.
 */
export function finalReads(model: ApiModel, mcp: boolean): ModelCommand[] {
  return model.accounts.flatMap((account) => [
    new ReadBalance(account.label, 'readWrite', 'rest'),
    ...account.builds.map((_, i) => new GetBuild(account.label, i, 'readWrite', 'rest')),
    ...(model.strict ? [new ListBuilds(account.label), new ListTransactions(account.label)] : []),
    ...account.keys.filter((k) => k.id !== undefined).flatMap((_, i) => [new UseKey(account.label, i, false, 'rest'), ...(mcp ? [new UseKey(account.label, i, false, 'mcp')] : [])]),
  ]);
}
