import type { OrderedCollection } from './ordered-collection.js';

/**
 * The MCP tasks an account holds: a task follows the build a tool call started, so all it
 * keeps is which build, what the call answered, and its lifetime. Its status is never stored:
 * it is read from the build (a pure function of the schedule and the account's clock).
 *
 * Tasks are a collection of the account like its builds (oldest first, newest-first pages),
 * so a state file logs each as a record when it changes, and a lookup or a listing costs what
 * the caller's own account holds: another account's task id finds nothing.
 */
export interface McpTaskRecord {
  /** The task id: 128 random bits (a UUID v4 from a cryptographic source), unguessable, as the spec asks. */
  id: string;
  /** The tool whose call made the task. */
  tool: string;
  /** The build the task follows. */
  buildId: string;
  /** The call's own answer (JSON), which the task's result repeats. */
  answer: string;
  /** On the account's clock, ms. */
  createdAt: number;
  /** How long after `createdAt` the task may be dropped, ms. */
  ttlMs: number;
  /** When a client asked to cancel it (on the account's clock), or null. Builds cannot be stopped. */
  cancelRequestedAt: number | null;
}

export type McpTaskCollection = OrderedCollection<McpTaskRecord>;

/** Drops the tasks whose lifetime has ended by `now` (the account's time); reads them without handing them out. */
export function pruneExpiredTasks(tasks: McpTaskCollection, now: number): void {
  const expired: string[] = [];
  for (let entry = tasks.entryAfter(0); entry; entry = tasks.entryAfter(entry[0])) {
    if (entry[1].createdAt + entry[1].ttlMs <= now) expired.push(entry[1].id);
  }
  for (const id of expired) tasks.remove(id);
}

/** The account's tasks, oldest first, read without handing them out (nothing is changed through them). */
export function* tasksOldestFirst(tasks: McpTaskCollection): Generator<McpTaskRecord> {
  for (let entry = tasks.entryAfter(0); entry; entry = tasks.entryAfter(entry[0])) yield entry[1];
}
