import type { Clock, ClockSetting } from '../clock/clock.js';
import type { ChangeCapture } from './change-capture.js';
import { Rng, type RngState } from '../random/rng.js';
import { OrderedCollection, RECORDS_PER_STEP } from './ordered-collection.js';
import type { ApiKeyRecord, LibraryItemRecord, ShareRecord, TargetRecord, TransactionRecord } from './records.js';
import type { AudioRecord, ChatRecord, ImageRecord } from './records.js';
import { IdempotencyIndex } from './idempotency.js';
import { BuildIndex } from './build-index.js';
import { Build } from './build-record.js';
import type { CollectionSnapshot } from './ordered-collection.js';
import { restoredTransaction, savedTransaction } from './transaction-record.js';
import type { McpTaskRecord } from './mcp-task-records.js';

/** Where a deliverable lives, as a saved simulation writes it. */
export interface DeliverableRef {
  buildId: string;
  pageIndex: number;
}

/** The fields collections are indexed by, shared by every account. */
const BY_TYPE = { type: (t: TransactionRecord) => t.type };
const BY_TARGET = { targetId: (r: { targetId: string }) => r.targetId };
const BY_DELIVERABLE = { deliverableId: (r: { deliverableId: string }) => r.deliverableId };

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
  readonly transactions = new OrderedCollection<TransactionRecord>('transaction', BY_TYPE);
  readonly targets = new OrderedCollection<TargetRecord>('target');
  readonly builds = new OrderedCollection<Build>('build');
  /** The builds by status and by target: filtered lists read only what matches. */
  readonly buildIndex = new BuildIndex();
  /** Library items of every target of the account; each record names its target. */
  readonly library = new OrderedCollection<LibraryItemRecord>('library item', BY_TARGET);
  /** Deliverable id → its build (the page is its place in the build's deliverable ids): no object a deliverable. */
  readonly deliverables = new Map<string, Build>();
  /** Links that share a deliverable; revoked ones stay listed. */
  readonly shares = new OrderedCollection<ShareRecord>('share', BY_DELIVERABLE);
  /** Generated images, listen versions (one per deliverable and voice) and conversations. */
  readonly images = new OrderedCollection<ImageRecord>('image');
  readonly audio = new OrderedCollection<AudioRecord>('audio', BY_DELIVERABLE);
  /** `${deliverableId}:${voice}` → audio id. */
  readonly audioByDeliverableVoice = new Map<string, string>();
  readonly chats = new OrderedCollection<ChatRecord>('chat', BY_TARGET);
  /** The MCP tasks that follow the account's builds (see mcp-task-records.ts), at most a hundred. */
  readonly mcpTasks = new OrderedCollection<McpTaskRecord>('task');
  /** slug → target id: slugs are unique per account. */
  readonly slugs = new Map<string, string>();
  readonly idempotency = new IdempotencyIndex();
  /** Idempotency-Keys of token purchases → transaction ids; a namespace apart from builds'. */
  readonly purchaseIdempotency = new IdempotencyIndex();
  /** Builds destined to fail whose refund is not booked yet, soonest first. */
  readonly pendingRefunds: Array<{ buildId: string; at: number }> = [];
  /**
   * The account's own clock, or null while it follows the simulator's: what time it is for
   * everything the account owns (builds, windows, expiry, timestamps).
   */
  clock: Clock | null = null;
  /** Hears of changes to the account's own fields while a state file is kept (see ChangeCapture). */
  capture: ChangeCapture | null = null;
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
    this.capture?.issuedId(this);
    return this.idStream.uuid();
  }

  /**
   * The account's own fields, as a write-ahead log records them: whatever is not a record of a
   * collection (balance, id stream, clock, refunds due), and where each collection's positions go on.
   */
  header(): AccountHeader {
    return {
      name: this.name,
      createdAt: this.createdAt,
      balance: this.balance,
      openingBalance: this.openingBalance,
      lifetimePurchased: this.lifetimePurchased,
      lifetimeUsed: this.lifetimeUsed,
      idStream: this.idStreamState,
      pendingRefunds: this.pendingRefunds,
      clock: this.clock === null ? null : this.clock.setting(),
      nextSeqs: [this.keys, this.transactions, this.targets, this.builds, this.library, this.shares, this.images, this.audio, this.chats, this.mcpTasks].map((c) => c.nextPosition),
    };
  }

  headerText(): string {
    return JSON.stringify(this.header());
  }

  get idStreamState(): RngState {
    return this.idStream.getState();
  }

  set idStreamState(state: RngState) {
    this.idStream.setState(state);
  }

  /** The account's now: its own clock's, else the simulator's (`simulatorNow`). One field read on the hot path. */
  now(simulatorNow: number): number {
    return this.clock === null ? simulatorNow : this.clock.now();
  }

  /**
   * Everything the account holds as plain JSON (keys only by their digest): what a saved
   * simulation writes. Builds and ledger entries in their plain form, the rest as kept.
   */
  save() {
    return {
      id: this.id,
      name: this.name,
      createdAt: this.createdAt,
      balance: this.balance,
      openingBalance: this.openingBalance,
      lifetimePurchased: this.lifetimePurchased,
      lifetimeUsed: this.lifetimeUsed,
      idStream: this.idStreamState,
      keys: this.keys.snapshot(),
      transactions: mapped(this.transactions.snapshot(), savedTransaction),
      targets: this.targets.snapshot(),
      builds: mapped(this.builds.snapshot(), (build) => build.toSaved(this.id)),
      library: this.library.snapshot(),
      shares: this.shares.snapshot(),
      images: this.images.snapshot(),
      audio: this.audio.snapshot(),
      chats: this.chats.snapshot(),
      mcpTasks: this.mcpTasks.snapshot(),
      deliverables: [...this.deliverables].map(([id, build]): [string, DeliverableRef] => [id, { buildId: build.id, pageIndex: build.pageOf(id) }]),
      audioByDeliverableVoice: [...this.audioByDeliverableVoice],
      slugs: [...this.slugs],
      idempotency: this.idempotency.snapshot(),
      purchaseIdempotency: this.purchaseIdempotency.snapshot(),
      pendingRefunds: this.pendingRefunds.map((p) => ({ ...p })),
      // Only an account with its own clock says so: snapshots of the others stay as they were.
      ...(this.clock === null ? {} : { clock: this.clock.snapshot() }),
    };
  }

  /**
   * An account as `save` wrote it, its indexes rebuilt as of `now`; the caller has checked the
   * records. As steps, pausing after about a thousand records (run them with `runAtOnce` or
   * `runInSlices`, state/steps.ts).
   */
  static *restoreSteps(saved: SavedAccount, seed: string, now: number): Generator<void, Account, void> {
    const account = new Account(saved.id, saved.name, saved.createdAt, seed);
    account.balance = saved.balance;
    account.openingBalance = saved.openingBalance;
    account.lifetimePurchased = saved.lifetimePurchased;
    account.lifetimeUsed = saved.lifetimeUsed;
    account.idStreamState = saved.idStream;
    yield* account.keys.restoreSteps(saved.keys);
    yield* account.targets.restoreSteps(saved.targets);
    const builds = yield* mappedSteps(saved.builds, (b) => Build.fromSaved(b));
    yield* account.builds.restoreSteps(builds);
    yield* steps(builds.entries, ([seq, build]) => account.buildIndex.add(seq, build, now));
    // After the builds: a build's charge reads the build it pays for.
    yield* account.transactions.restoreSteps(yield* mappedSteps(saved.transactions, (t) => restoredTransaction(t, (id) => account.builds.peek(id))));
    yield* account.library.restoreSteps(saved.library);
    yield* account.shares.restoreSteps(saved.shares);
    yield* account.images.restoreSteps(saved.images);
    yield* account.audio.restoreSteps(saved.audio);
    yield* account.chats.restoreSteps(saved.chats);
    // Absent from snapshots saved before tasks were the account's own records.
    if (saved.mcpTasks) yield* account.mcpTasks.restoreSteps(saved.mcpTasks);
    yield* steps(saved.deliverables, ([id, ref]) => {
      const build = account.builds.get(ref.buildId);
      if (build) account.deliverables.set(id, build);
    });
    yield* steps(saved.audioByDeliverableVoice, ([key, id]) => account.audioByDeliverableVoice.set(key, id));
    yield* steps(saved.slugs, ([slug, id]) => account.slugs.set(slug, id));
    account.idempotency.restore(saved.idempotency);
    account.purchaseIdempotency.restore(saved.purchaseIdempotency);
    account.pendingRefunds.push(...[...saved.pendingRefunds].sort((a, b) => a.at - b.at));
    return account;
  }

  /**
   * Forgets everything the account made (targets, builds, deliverables, library, shares,
   * images, audio, chats, MCP tasks, ledger, idempotency records): its keys and its id stream stay.
   */
  clearContents(): void {
    for (const collection of [this.transactions, this.targets, this.builds, this.library, this.shares, this.images, this.audio, this.chats, this.mcpTasks]) {
      collection.clear();
    }
    this.buildIndex.clear();
    this.deliverables.clear();
    this.audioByDeliverableVoice.clear();
    this.slugs.clear();
    this.idempotency.restore([]);
    this.purchaseIdempotency.restore([]);
    this.pendingRefunds.length = 0;
    this.balance = 0;
    this.lifetimePurchased = 0;
    this.lifetimeUsed = 0;
  }
}

/** An account's own fields (see `Account.header`); `nextSeqs` in the order of ACCOUNT_COLLECTIONS. */
export interface AccountHeader {
  name: string;
  createdAt: number;
  balance: number;
  openingBalance: number;
  lifetimePurchased: number;
  lifetimeUsed: number;
  idStream: RngState;
  pendingRefunds: ReadonlyArray<{ buildId: string; at: number }>;
  clock: ClockSetting | null;
  nextSeqs: number[];
}

/** An account as plain JSON: what `Account.save` writes and `Account.restoreSteps` reads. */
export type SavedAccount = ReturnType<Account['save']>;

/** A collection's records in another form: saved builds and ledger entries are plain, the store's are compact. */
function mapped<A, B>(saved: CollectionSnapshot<A>, as: (record: A) => B): CollectionSnapshot<B> {
  return { nextSeq: saved.nextSeq, entries: saved.entries.map(([seq, record]): [number, B] => [seq, as(record)]) };
}

function* mappedSteps<A, B>(saved: CollectionSnapshot<A>, as: (record: A) => B): Generator<void, CollectionSnapshot<B>, void> {
  const entries: Array<[number, B]> = [];
  yield* steps(saved.entries, ([seq, record]) => entries.push([seq, as(record)]));
  return { nextSeq: saved.nextSeq, entries };
}

/** `each` of the rows, pausing after every few thousand. */
function* steps<T>(rows: readonly T[], each: (row: T) => void): Generator<void, void, void> {
  for (let i = 0; i < rows.length; i++) {
    each(rows[i] as T);
    if (i % RECORDS_PER_STEP === RECORDS_PER_STEP - 1) yield;
  }
}
