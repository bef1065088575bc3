/**
 * What changed in the simulation since the last look, as write-ahead log entries (JSON text).
 *
 * The capture is built into the tables themselves, so no operation has to remember to report
 * a change: a table (an account's collection, an idempotency index, an OAuth table) tells the
 * capture of every record it adds, removes or clears, and of every record it hands out, which
 * the caller may then change in place. A record handed out is remembered as it was (its JSON);
 * `collect` compares it with the record as it is, and logs it only when it differs, so a read
 * costs no log write. Accounts' own fields (balance, id stream, clock, ...) are compared the
 * same way whenever anything of the account was touched, and the simulator-wide values (clock,
 * id streams) on every collect.
 *
 * Log entries, each a JSON array:
 *   ["h", accountId, header]            an account's own fields (creates the account)
 *   ["p", ...table, key, value]         a record put (a collection's value is [position, record])
 *   ["d", ...table, key]                a record removed
 *   ["x", ...table]                     a table emptied
 *   ["v", name, value]                  a simulator-wide value (clock, id streams)
 * where `table` is ["c", accountId, collection], ["m", accountId, index] or ["o", table].
 */

/** A table whose records the capture compares. */
export interface CapturedTable {
  /** Its address in log entries, as JSON text without brackets: `"c","<account>","targets"`. */
  readonly address: string;
  /** The record now under `key`, read without counting as handed out; undefined when gone. */
  peek(key: string): unknown;
  /** What is compared: the record's JSON. */
  comparable(value: unknown): string;
  /**
   * Fields that change on every use (last-used times): a change to them alone is logged with
   * the rest, but no answer waits for the disk because of it.
   */
  readonly volatile?: readonly string[];
  /** The value of a put entry, as JSON text. */
  putValue(key: string, value: unknown): string;
}

/** An account as the capture sees it: its own fields as JSON, compared like a record. */
export interface CapturedAccount {
  readonly id: string;
  headerText(): string;
}

/** A value outside the tables (the simulator's clock, the id streams), compared on each collect. */
export interface CapturedValue {
  readonly name: string;
  read(): string;
  /**
   * Whether it must be logged now, though nothing else changed (`logged`: its last logged
   * text): a clock set anew, an id stream that has used half the ids reserved past its last
   * logged position. Otherwise it is logged along with the next change.
   */
  due(logged: string): boolean;
}

/** The entries of one collect, and whether the whole simulation was replaced since the last. */
export interface CollectedChanges {
  entries: string[];
  /** Some entry is more than a last-used time: the answers waiting for it must wait for the disk. */
  mustSync: boolean;
  /** Some record or account changed (more than a last-used time, and more than a simulator-wide value). */
  recordsChanged: boolean;
  /** Restored or reset as a whole: a log entry cannot say it, a checkpoint must. */
  replaced: boolean;
}

/** Runs the durability wait: a promise when the answer must wait for the log, else undefined. */
export type DurabilityGate = () => Promise<void> | undefined;

export class ChangeCapture {
  /** Off until a state file is kept: then tables report to it. */
  enabled = false;
  private readonly handedOut = new Map<CapturedTable, Map<string, string | null>>();
  private readonly emptied = new Set<CapturedTable>();
  /** Keys of ordered tables (most recently used last) whose record moved to the end. */
  private readonly moved = new Map<CapturedTable, Set<string>>();
  private readonly accounts = new Map<CapturedAccount, string | null>();
  private readonly values: CapturedValue[] = [];
  private readonly logged = new Map<string, string>();
  private replacedAll = false;
  private pending = false;
  /** Set by whoever keeps the log: asked after each request whether its answer must wait. */
  gate: DurabilityGate | null = null;
  /**
   * Set by whoever keeps the log: asked before the whole simulation is replaced, while nothing
   * has changed yet; it throws the refusal when the replacement could not be made durable now.
   */
  beforeReplace: (() => void) | null = null;
  /** Why the log cannot be written now (`/readyz` says so), or null while it can. */
  storageProblem: string | null = null;

  /** Whether anything may have changed since the last collect. */
  get dirty(): boolean {
    return this.pending;
  }

  /** A record is about to be handed out, added or removed: remember it as it is now. */
  touch(table: CapturedTable, key: string, value: unknown): void {
    if (!this.enabled) return;
    this.pending = true;
    let seen = this.handedOut.get(table);
    if (seen === undefined) this.handedOut.set(table, (seen = new Map()));
    if (!seen.has(key)) seen.set(key, value === undefined ? null : table.comparable(value));
  }

  /** The record under `key` moves to the end of its table's order (a most-recently-used table). */
  movedToEnd(table: CapturedTable, key: string, value: unknown): void {
    if (!this.enabled) return;
    this.touch(table, key, value);
    let keys = this.moved.get(table);
    if (keys === undefined) this.moved.set(table, (keys = new Set()));
    keys.add(key);
  }

  /** Every record of the table is gone: the log says so once, then what was added since. */
  emptiedTable(table: CapturedTable): void {
    if (!this.enabled) return;
    this.pending = true;
    this.handedOut.delete(table);
    this.moved.delete(table);
    this.emptied.add(table);
  }

  /** Something of the account may change: its own fields are compared at the next collect. */
  touchAccount(account: CapturedAccount, isNew = false): void {
    if (!this.enabled) return;
    this.pending = true;
    if (!this.accounts.has(account)) this.accounts.set(account, isNew ? null : account.headerText());
  }

  /** Counts whole replacements: a checkpoint written meanwhile describes nothing that still is. */
  generation = 0;
  /** Ids an account's stream gave since the log last made its position durable (see `issuedId`). */
  idsIssued = 0;

  /** The account gave an id from its stream: its position must reach the log before too many more. */
  issuedId(account: CapturedAccount): void {
    if (!this.enabled) return;
    this.idsIssued++;
    this.touchAccount(account);
  }

  /** The whole simulation was replaced (a restore, a reset). */
  replaced(): void {
    if (this.enabled) this.beforeReplace?.();
    this.generation++;
    if (!this.enabled) return;
    this.pending = true;
    this.replacedAll = true;
    this.handedOut.clear();
    this.moved.clear();
    this.emptied.clear();
    this.accounts.clear();
  }

  /** A value compared on every collect; its current value counts as logged. */
  watch(value: CapturedValue): void {
    this.values.push(value);
    this.logged.set(value.name, value.read());
  }

  /** Whether a value must reach the log now (see `CapturedValue.due`). */
  get valuesDue(): boolean {
    return this.dueValues().length > 0;
  }

  /** The names of the values that must reach the log now. */
  dueValues(): string[] {
    return this.values.filter((value) => value.due(this.logged.get(value.name) ?? '')).map((value) => value.name);
  }

  /** A value's text as last logged. */
  loggedText(name: string): string {
    return this.logged.get(name) ?? '';
  }

  /** The log entries for everything that changed since the last collect; clears the capture. */
  collect(): CollectedChanges {
    const entries: string[] = [];
    let volatileOnly = 0;
    for (const [account, before] of this.accounts) {
      const now = account.headerText();
      if (now !== before) entries.push(`["h",${JSON.stringify(account.id)},${now}]`);
    }
    for (const table of this.emptied) entries.push(`["x",${table.address}]`);
    for (const [table, seen] of this.handedOut) {
      for (const [key, before] of seen) {
        const value = table.peek(key);
        if (value === undefined) {
          if (before !== null) entries.push(`["d",${table.address},${JSON.stringify(key)}]`);
          continue;
        }
        const moved = this.moved.get(table)?.has(key) === true;
        if (before !== null) {
          const now = table.comparable(value);
          if (now === before && !moved) continue;
          if ((now === before || (table.volatile && sameBut(table.volatile, before, now))) && !moved) volatileOnly++;
          // Removed and put again: the replay moves it to the end, as the table did.
          if (moved) entries.push(`["d",${table.address},${JSON.stringify(key)}]`);
        }
        entries.push(`["p",${table.address},${JSON.stringify(key)},${table.putValue(key, value)}]`);
      }
    }
    const mustSync = entries.length > volatileOnly;
    // Values ride along with any other change, or go alone when due; unchanged ones stay out.
    const alone = entries.length === 0;
    let valuesDue = false;
    for (const value of this.values) {
      const logged = this.logged.get(value.name) ?? '';
      const due = value.due(logged);
      if (alone && !due) continue;
      const now = value.read();
      if (now === logged) continue;
      valuesDue ||= due;
      entries.push(`["v",${JSON.stringify(value.name)},${now}]`);
      this.logged.set(value.name, now);
    }
    const replaced = this.replacedAll;
    this.accounts.clear();
    this.emptied.clear();
    this.handedOut.clear();
    this.moved.clear();
    this.replacedAll = false;
    this.pending = false;
    return { entries, replaced, mustSync: mustSync || valuesDue, recordsChanged: mustSync };
  }

  /** The durability wait for an answer just made, if the log keeper asks for one. */
  settle(): Promise<void> | undefined {
    return this.gate?.();
  }
}

/**
 * Whether two JSON texts of one record differ only in `fields` (numbers or null: last-used
 * times). Matched in the text, as `JSON.stringify` writes a field: inside a string value the
 * quotes would be escaped, so no string can pass for one.
 */
function sameBut(fields: readonly string[], a: string, b: string): boolean {
  const strip = (text: string) => fields.reduce((t, field) => t.replace(new RegExp(`"${field}":(?:null|-?[0-9.e+]+)`), ''), text);
  return strip(a) === strip(b);
}
