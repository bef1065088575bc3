import { Rng, type RngState } from '../random/rng.js';
import { OrderedCollection } from './ordered-collection.js';
import type { ApiKeyRecord, LibraryItemRecord, ShareRecord, TargetRecord, TransactionRecord } from './records.js';
import type { AudioRecord, ChatRecord, ImageRecord } from './records.js';
import { IdempotencyIndex } from '../builds/idempotency.js';
import { BuildIndex } from '../builds/build-index.js';
import type { Build } from './build-record.js';

/** Where a deliverable lives, as a saved simulation writes it. */
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
  /** The tokens bought when the account was made: what an account reset gives back. */
  openingBalance = 0;
  lifetimePurchased = 0;
  lifetimeUsed = 0;
  /** API keys, revoked ones included (a listing shows them); newest first. */
  readonly keys = new OrderedCollection<ApiKeyRecord>('API key');
  readonly transactions = new OrderedCollection<TransactionRecord>('transaction', { type: (t) => t.type });
  readonly targets = new OrderedCollection<TargetRecord>('target');
  readonly builds = new OrderedCollection<Build>('build');
  /** The builds by status and by target: filtered lists read only what matches. */
  readonly buildIndex = new BuildIndex();
  /** Library items of every target of the account; each record names its target. */
  readonly library = new OrderedCollection<LibraryItemRecord>('library item', { targetId: (i) => i.targetId });
  /** Deliverable id → its build (the page is its place in the build's deliverable ids): no object a deliverable. */
  readonly deliverables = new Map<string, Build>();
  /** Links that share a deliverable; revoked ones stay listed. */
  readonly shares = new OrderedCollection<ShareRecord>('share', { deliverableId: (s) => s.deliverableId });
  /** Generated images, listen versions (one per deliverable and voice) and conversations. */
  readonly images = new OrderedCollection<ImageRecord>('image');
  readonly audio = new OrderedCollection<AudioRecord>('audio', { deliverableId: (a) => a.deliverableId });
  /** `${deliverableId}:${voice}` → audio id. */
  readonly audioByDeliverableVoice = new Map<string, string>();
  readonly chats = new OrderedCollection<ChatRecord>('chat', { targetId: (c) => c.targetId });
  /** slug → target id: slugs are unique per account. */
  readonly slugs = new Map<string, string>();
  readonly idempotency = new IdempotencyIndex();
  /** Idempotency-Keys of token purchases → transaction ids; a namespace apart from builds'. */
  readonly purchaseIdempotency = new IdempotencyIndex();
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

  /** Forgets what the retention policy lets go by `now`: Idempotency-Keys past their 24 hours, the index's entries of builds that have finished. */
  pruneExpired(now: number): void {
    this.idempotency.prune(now);
    this.purchaseIdempotency.prune(now);
    this.buildIndex.advance(now);
  }

  newId(): string {
    return this.idStream.uuid();
  }

  get idStreamState(): RngState {
    return this.idStream.getState();
  }

  set idStreamState(state: RngState) {
    this.idStream.setState(state);
  }
}
