import { Rng } from '../random/rng.js';
import { OrderedCollection } from './ordered-collection.js';
import type { ApiKeyRecord, BuildRecord, LibraryItemRecord, TargetRecord, TransactionRecord } from './records.js';
import { IdempotencyIndex } from '../builds/idempotency.js';

export interface DeliverableRef {
  buildId: string;
  pageIndex: number;
}

/**
 * One user of the service and everything it owns. Accounts share nothing, so parallel
 * test runs on different keys never see each other's data.
 */
export class Account {
  balance = 0;
  lifetimePurchased = 0;
  lifetimeUsed = 0;
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly transactions = new OrderedCollection<TransactionRecord>();
  readonly targets = new OrderedCollection<TargetRecord>();
  readonly builds = new OrderedCollection<BuildRecord>();
  /** Library items of every target of the account; each record names its target. */
  readonly library = new OrderedCollection<LibraryItemRecord>();
  readonly deliverables = new Map<string, DeliverableRef>();
  /** slug → target id: slugs are unique per account. */
  readonly slugs = new Map<string, string>();
  readonly idempotency = new IdempotencyIndex();
  /** Builds destined to fail whose refund is not booked yet, soonest first. */
  readonly pendingRefunds: Array<{ buildId: string; at: number }> = [];
  /** Ids of this account's records come from its own stream: parallel accounts don't disturb each other. */
  private readonly idStream: Rng;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly createdAt: number,
    seed: string,
  ) {
    this.idStream = new Rng(seed, 'account-ids', id);
  }

  newId(): string {
    return this.idStream.uuid();
  }
}
