import { z } from 'zod';
import { validationError } from '../errors/api-error.js';

/**
 * The saved form of the MCP tasks (`mcpTasks` in a snapshot), and what a restore checks of
 * them: each names an account of the snapshot and one of that account's builds, once.
 */
const MAX_TTL_MS = 7 * 24 * 3_600_000;
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'must be a UUID in lower case');
const ms = z.number().int().min(0).max(253_402_300_799_999);

export const mcpTasks = z.array(z.object({
  taskId: uuid,
  accountId: uuid,
  tool: z.string().min(1).max(100),
  buildId: uuid,
  answer: z.string().max(10_000).refine(isJsonObject, 'must be the JSON object the tool call answered'),
  createdAt: ms,
  ttlMs: z.number().int().min(1).max(MAX_TTL_MS),
  cancelRequestedAt: ms.nullable(),
}));

interface SavedState {
  accounts: { id: string; builds: { entries: (readonly [number, { id: string }])[] } }[];
  mcpTasks?: z.infer<typeof mcpTasks>;
}

export function assertMcpTaskReferences(snapshot: SavedState): void {
  const builds = new Map(snapshot.accounts.map((a) => [a.id, new Set(a.builds.entries.map(([, b]) => b.id))]));
  const seen = new Set<string>();
  for (const [i, task] of (snapshot.mcpTasks ?? []).entries()) {
    const at = `body.mcpTasks[${i}]`;
    const own = builds.get(task.accountId);
    if (!own) throw validationError([{ path: `${at}.accountId`, message: 'names no account of the snapshot' }]);
    if (!own.has(task.buildId)) throw validationError([{ path: `${at}.buildId`, message: 'names no build of its account' }]);
    if (seen.has(task.taskId)) throw validationError([{ path: `${at}.taskId`, message: 'is not unique' }]);
    seen.add(task.taskId);
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
