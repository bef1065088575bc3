import type { Account } from './account.js';
import type { CapturedAccount, CapturedTable, ChangeCapture } from './change-capture.js';
import type { CollectionObserver, OrderedCollection } from './ordered-collection.js';
import type { IdempotencyIndex, IdempotencyObserver } from './idempotency.js';
import { savedTransaction } from './transaction-record.js';

/**
 * The tables of one account, reporting to a change capture: each collection and idempotency
 * index hears of its own changes, so every write any operation makes reaches the log.
 */

/** The collections of an account as a saved simulation names them, with the saved form of their records. */
/** New collections go last: a state log written before them names the others' positions by this order. */
export const ACCOUNT_COLLECTIONS = ['keys', 'transactions', 'targets', 'builds', 'library', 'shares', 'images', 'audio', 'chats', 'mcpTasks'] as const;
export type CollectionName = (typeof ACCOUNT_COLLECTIONS)[number];
export const IDEMPOTENCY_INDEXES = ['idempotency', 'purchaseIdempotency'] as const;

/** Records made once and never changed in place: their reads need no watching. */
const WRITE_ONCE: ReadonlySet<CollectionName> = new Set(['transactions', 'builds']);

/** The saved form of a record of `name` in `account` (as `Account.save` writes it). */
export function savedRecord(account: Account, name: CollectionName, record: unknown): unknown {
  if (name === 'builds') return (record as { toSaved(accountId: string): unknown }).toSaved(account.id);
  if (name === 'transactions') return savedTransaction(record as Parameters<typeof savedTransaction>[0]);
  return record;
}

/** A key's last use changes on every call: logged, but no answer waits for the disk for it. */
const KEY_VOLATILE = ['lastUsedAt'] as const;

class CollectionTable<T extends { id: string }> implements CapturedTable, CollectionObserver<T> {
  readonly address: string;
  readonly reportsReads: boolean;
  readonly volatile?: readonly string[];

  constructor(
    private readonly capture: ChangeCapture,
    private readonly account: Account & CapturedAccount,
    private readonly name: CollectionName,
    private readonly collection: OrderedCollection<T>,
  ) {
    this.address = `"c",${JSON.stringify(account.id)},"${name}"`;
    this.reportsReads = !WRITE_ONCE.has(name);
    if (name === 'keys') this.volatile = KEY_VOLATILE;
  }

  touched(id: string, item: T | undefined): void {
    this.capture.touchAccount(this.account);
    this.capture.touch(this, id, item);
  }

  emptied(): void {
    this.capture.touchAccount(this.account);
    this.capture.emptiedTable(this);
  }

  peek(key: string): unknown {
    return this.collection.peek(key);
  }

  comparable(value: unknown): string {
    // Write-once records are compared only as present or absent: their content never differs.
    return this.reportsReads ? JSON.stringify(value) : '';
  }

  putValue(key: string, value: unknown): string {
    return `[${this.collection.seqOf(key)},${JSON.stringify(savedRecord(this.account, this.name, value))}]`;
  }
}

class IdempotencyTable implements CapturedTable, IdempotencyObserver {
  readonly address: string;

  constructor(
    private readonly capture: ChangeCapture,
    private readonly account: Account & CapturedAccount,
    name: string,
    private readonly index: IdempotencyIndex,
  ) {
    this.address = `"m",${JSON.stringify(account.id)},"${name}"`;
  }

  touched(key: string, entry: { buildId: string; createdAt: number } | undefined): void {
    this.capture.touchAccount(this.account);
    this.capture.touch(this, key, entry);
  }

  emptied(): void {
    this.capture.touchAccount(this.account);
    this.capture.emptiedTable(this);
  }

  peek(key: string): unknown {
    return this.index.peek(key);
  }

  comparable(value: unknown): string {
    const entry = value as { buildId: string; createdAt: number };
    return `${entry.buildId}@${entry.createdAt}`;
  }

  putValue(_key: string, value: unknown): string {
    const entry = value as { buildId: string; createdAt: number };
    return JSON.stringify([entry.buildId, entry.createdAt]);
  }
}

/** Makes every table of `account` report to `capture`. */
export function observeAccount(capture: ChangeCapture, account: Account): void {
  account.capture = capture;
  for (const name of ACCOUNT_COLLECTIONS) {
    const collection = account[name] as unknown as OrderedCollection<{ id: string }>;
    collection.observer = new CollectionTable(capture, account, name, collection);
  }
  for (const name of IDEMPOTENCY_INDEXES) account[name].observer = new IdempotencyTable(capture, account, name, account[name]);
}
