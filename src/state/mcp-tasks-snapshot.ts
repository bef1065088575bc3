import * as z from 'zod';
import { validationError } from '../errors/api-error.js';

/**
 * The saved form of the MCP tasks, and what a restore checks of them. A task is a record of
 * its account (`accounts[].mcpTasks`, a collection like `builds`) and names one of that
 * account's builds. Snapshots saved before held every account's tasks in one list at the top
 * (`mcpTasks`, each naming its account): such a list is still read, and moved into the
 * accounts it names (see `liftSavedTasks`).
 */
const MAX_TTL_MS = 7 * 24 * 3_600_000;
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a UUID in lower case');
const ms = z.number().int().min(0).max(253_402_300_799_999);

const taskFields = {
  tool: z.string().min(1).max(100),
  buildId: uuid,
  answer: z.string().max(10_000).refine(isJsonObject, 'must be the JSON object the tool call answered'),
  createdAt: ms,
  ttlMs: z.number().int().min(1).max(MAX_TTL_MS),
  cancelRequestedAt: ms.nullable(),
};

/** One task as its account's collection keeps it. */
export const savedTask = z.object({ id: uuid, ...taskFields });

/** The list of every account's tasks that snapshots saved before tasks were records of their account held. */
export const legacyMcpTasks = z.array(z.object({ taskId: uuid, accountId: uuid, ...taskFields }));

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Moves a top-level `mcpTasks` list (the earlier form) into the accounts it names, as their
 * `mcpTasks` collections, which it replaces: the list held every task there was. Works on the
 * plain JSON of a snapshot (a checkpoint being replayed) as on a checked one; a task naming
 * no account of the snapshot is left in the list, for the restore's checks to refuse.
 */
export function liftSavedTasks(snapshot: Json): void {
  if (!Array.isArray(snapshot?.accounts)) return;
  const accounts = new Map<string, Json>();
  for (const account of snapshot.accounts as Json[]) if (account !== null && typeof account === 'object') accounts.set(account.id, account);
  const listed = snapshot.mcpTasks;
  if (!Array.isArray(listed)) {
    // Saved before tasks existed, or in this form already: an account without the collection holds none.
    for (const account of accounts.values()) account.mcpTasks ??= { nextSeq: 1, entries: [] };
    return;
  }
  const byAccount = new Map<Json, Json[]>();
  const unplaced: Json[] = [];
  for (const task of listed as Json[]) {
    const account = accounts.get(task?.accountId);
    if (!account) {
      unplaced.push(task);
      continue;
    }
    const { taskId, accountId: _account, ...fields } = task;
    byAccount.set(account, [...(byAccount.get(account) ?? []), { id: taskId, ...fields }]);
  }
  for (const account of accounts.values()) {
    const own = byAccount.get(account) ?? [];
    account.mcpTasks = { nextSeq: own.length + 1, entries: own.map((task, i) => [i + 1, task]) };
  }
  if (unplaced.length > 0) snapshot.mcpTasks = unplaced;
  else delete snapshot.mcpTasks;
}

interface SavedState {
  accounts: { id: string; builds: { entries: (readonly [number, { id: string }])[] }; mcpTasks?: { entries: (readonly [number, { id: string; buildId: string }])[] } }[];
  mcpTasks?: z.infer<typeof legacyMcpTasks>;
}

/**
 * Moves an earlier snapshot's task list into its accounts (each task must name one), then
 * checks that each task names a build of its own account and that no task id is held twice.
 */
export function placeMcpTasks(snapshot: SavedState): void {
  const ids = new Set(snapshot.accounts.map((a) => a.id));
  for (const [i, task] of (snapshot.mcpTasks ?? []).entries()) {
    if (!ids.has(task.accountId)) throw validationError([{ path: `body.mcpTasks[${i}].accountId`, message: 'names no account of the snapshot' }]);
  }
  liftSavedTasks(snapshot);
  const seen = new Set<string>();
  snapshot.accounts.forEach((account, a) => {
    const builds = new Set(account.builds.entries.map(([, b]) => b.id));
    (account.mcpTasks?.entries ?? []).forEach(([, task], j) => {
      const at = `body.accounts[${a}].mcpTasks.entries[${j}][1]`;
      if (!builds.has(task.buildId)) throw validationError([{ path: `${at}.buildId`, message: 'names no build of its account' }]);
      if (seen.has(task.id)) throw validationError([{ path: `${at}.id`, message: 'is not unique' }]);
      seen.add(task.id);
    });
  });
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
