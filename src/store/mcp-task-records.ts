/**
 * The MCP tasks each account holds: a task follows the build a tool call started, so all it
 * keeps is which build, what the call answered, and its lifetime. Its status is never stored:
 * it is read from the build (a pure function of the schedule and the account's clock).
 *
 * Each account's tasks are kept oldest first, bounded by whoever adds them; lookups are by id
 * within the account, so another account's task id finds nothing.
 */
export interface McpTaskRecord {
  /** 128 random bits (a UUID v4 from a cryptographic source): unguessable, as the spec asks. */
  taskId: string;
  accountId: string;
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

export class McpTaskRecords {
  private readonly byAccount = new Map<string, Map<string, McpTaskRecord>>();

  get(accountId: string, taskId: string): McpTaskRecord | undefined {
    return this.byAccount.get(accountId)?.get(taskId);
  }

  /** The account's tasks, oldest first. */
  list(accountId: string): McpTaskRecord[] {
    return [...(this.byAccount.get(accountId)?.values() ?? [])];
  }

  count(accountId: string): number {
    return this.byAccount.get(accountId)?.size ?? 0;
  }

  add(record: McpTaskRecord): void {
    const own = this.byAccount.get(record.accountId) ?? new Map<string, McpTaskRecord>();
    this.byAccount.set(record.accountId, own);
    own.set(record.taskId, record);
  }

  delete(accountId: string, taskId: string): void {
    const own = this.byAccount.get(accountId);
    own?.delete(taskId);
    if (own?.size === 0) this.byAccount.delete(accountId);
  }

  /** Drops the account's tasks whose lifetime has ended by `now` (the account's time). */
  pruneExpired(accountId: string, now: number): void {
    for (const record of this.list(accountId)) if (record.createdAt + record.ttlMs <= now) this.delete(accountId, record.taskId);
  }

  clearAccount(accountId: string): void {
    this.byAccount.delete(accountId);
  }

  save(): McpTaskRecord[] {
    return [...this.byAccount.values()].flatMap((own) => [...own.values()].map((record) => ({ ...record })));
  }

  replace(records: McpTaskRecord[]): void {
    this.byAccount.clear();
    for (const record of records) this.add({ ...record });
  }
}
