import { API_KEY_PREFIX, hashApiKey, keyHint, type Scope } from '../credentials/api-key.js';
import { constantTimeEqual } from '../credentials/constant-time.js';
import { Rng, type RngState } from '../random/rng.js';
import { randomHex } from '../random/secrets.js';
import { Account, type SavedAccount } from './account.js';
import type { ApiKeyRecord } from './records.js';
import { ChangeCapture } from './change-capture.js';
import { observeAccount } from './captured-tables.js';

export interface IssuedKey {
  record: ApiKeyRecord;
  /** The key itself: returned once, never stored. */
  value: string;
}

/** Every account and the index of API keys by their hash. Each lookup is O(1). */
export class Store {
  readonly accounts = new Map<string, Account>();
  private readonly keysByHash = new Map<string, ApiKeyRecord>();
  /** Share token → its share: the public view finds a link without knowing the account. */
  readonly shareTokens = new Map<string, { accountId: string; shareId: string }>();
  private readonly ids: Rng;
  /** Where the retention sweep stands among the accounts (a live iterator: it sees accounts added since). */
  private sweepCursor: IterableIterator<Account> = this.accounts.values();
  private readonly keyValues: Rng;
  private seeding = 0;
  /** What changed since the log last looked: on while a state file is kept (see ChangeCapture). */
  readonly changes = new ChangeCapture();

  /**
   * `deterministicSecrets` draws every secret from the seed: byte-identical replays, and keys
   * anyone with the seed can derive. `randomDemoKeys` draws even the demo keys at random: for a
   * server others can reach, where keys known to everyone with the seed would be open doors.
   */
  constructor(
    private readonly seed: string,
    private readonly deterministicSecrets = false,
    private readonly randomDemoKeys = false,
    /** This instance's tag (two hex digits) at the start of every key and share token it mints; '' alone. */
    readonly ownerTag = '',
  ) {
    this.ids = new Rng(seed, 'store-ids');
    this.keyValues = new Rng(seed, 'key-values');
  }

  /** `id`: an id drawn elsewhere (a scenario's account, from its own stream); the caller makes sure it is free. */
  createAccount(name: string, now: number, id = this.ids.uuid()): Account {
    const account = new Account(id, name, now, this.seed);
    this.accounts.set(account.id, account);
    if (this.changes.enabled) {
      observeAccount(this.changes, account);
      this.changes.touchAccount(account, true);
    }
    return account;
  }

  issueKey(account: Account, name: string, scopes: Scope[], now: number, rotatedFromId: string | null = null): IssuedKey {
    const value = `${API_KEY_PREFIX}${this.ownedSecretHex(40)}`;
    const record: ApiKeyRecord = {
      id: account.newId(),
      accountId: account.id,
      name,
      hash: hashApiKey(value),
      hint: keyHint(value),
      scopes: [...scopes].sort(),
      createdAt: now,
      revokedAt: null,
      lastUsedAt: null,
      rotatedFromId,
      replacedById: null,
    };
    account.keys.add(record);
    this.keysByHash.set(record.hash, record);
    return { record, value };
  }

  /**
   * A secret value: from the cryptographic generator, except the demo keys printed at start
   * (public by design, so the same seed gives the same keys) and with deterministic secrets.
   */
  secretHex(length: number): string {
    const fromSeed = this.deterministicSecrets || (this.seeding > 0 && !this.randomDemoKeys);
    return fromSeed ? this.keyValues.hex(length) : randomHex(length);
  }

  /** A secret that names the instance owning it in its first characters, so a proxy can route on it. */
  ownedSecretHex(length: number): string {
    return this.ownerTag + this.secretHex(length - this.ownerTag.length);
  }

  /** Runs `make` with secrets drawn from the seed: the start-up demo accounts. */
  seeded<T>(make: () => T): T {
    this.seeding++;
    try {
      return make();
    } finally {
      this.seeding--;
    }
  }

  /**
   * The key record for a presented key, revoked or not. The map is keyed by digest, and the
   * digest found is compared again in constant time, so timing tells nothing of the key.
   */
  findKey(presented: string): ApiKeyRecord | undefined {
    const digest = hashApiKey(presented);
    const record = this.keysByHash.get(digest);
    if (!record || !constantTimeEqual(record.hash, digest)) return undefined;
    // Handed out through its collection, so a change made to it in place is captured.
    this.accounts.get(record.accountId)?.keys.get(record.id);
    return record;
  }

  /** Whether `record` is still the key held under its digest (a reset or a restore replaces the records). */
  holdsKey(record: ApiKeyRecord): boolean {
    const held = this.keysByHash.get(record.hash) === record;
    // A key a connection kept is handed out again: a change made to it in place is captured.
    if (held) this.accounts.get(record.accountId)?.keys.get(record.id);
    return held;
  }

  revokeKey(record: ApiKeyRecord, now: number): void {
    record.revokedAt ??= now;
  }

  /**
   * The retention policy's share of one request: the next two accounts in turn forget what
   * has expired (O(expired) each, nothing when nothing has). Every account is visited within
   * (accounts / 2) requests, so an account nobody calls any more still lets its records go,
   * and no request ever pays for a sweep of everything. `now` is the simulator's; an account
   * with its own clock is swept by that. The caller's own account is passed over: its
   * operations forget their own expired records as they read them (an Idempotency-Key lookup
   * prunes its index, the catch-up advances its builds), so what it is answered never depends
   * on where the sweep's turn happens to be.
   */
  sweep(now: number, caller?: Account): void {
    if (this.accounts.size <= 2) {
      // Every account at once (the cursor would wrap on every request, a new iterator each time).
      this.sweepNow = now;
      this.sweepCaller = caller;
      this.accounts.forEach(this.sweepOne);
      this.sweepCaller = undefined;
      return;
    }
    for (let swept = 0; swept < 2; ) {
      let next = this.sweepCursor.next();
      if (next.done) {
        this.sweepCursor = this.accounts.values();
        next = this.sweepCursor.next();
        if (next.done) return;
      }
      // More than two accounts: two others than the caller are always there to take its turn.
      if (next.value === caller) continue;
      next.value.pruneExpired(next.value.now(now));
      swept++;
    }
  }

  private sweepNow = 0;
  private sweepCaller: Account | undefined;
  private readonly sweepOne = (account: Account): void => {
    if (account !== this.sweepCaller) account.pruneExpired(account.now(this.sweepNow));
  };

  account(id: string): Account | undefined {
    const account = this.accounts.get(id);
    if (account) this.changes.touchAccount(account);
    return account;
  }

  /** From now on every account's tables report their changes (a state file is kept). */
  captureChanges(): void {
    this.changes.enabled = true;
    for (const account of this.accounts.values()) observeAccount(this.changes, account);
  }

  /** Where the id and key streams stand: saved with the simulation, so a restart reissues nothing. */
  get streams(): StoreStreams {
    return { ids: this.ids.getState(), keyValues: this.keyValues.getState() };
  }

  /** Every account as plain JSON, in the order they were made. */
  saveAccounts(): SavedAccount[] {
    return [...this.accounts.values()].map((account) => account.save());
  }

  /** Empties an account of everything it made (see `Account.clearContents`), its share links with it. */
  clearAccount(account: Account): void {
    for (const share of account.shares.values()) this.shareTokens.delete(share.token);
    account.clearContents();
  }

  /** Replaces every account with restored ones, and the indexes that find keys and share links. */
  replaceAccounts(accounts: Account[], streams: StoreStreams): void {
    this.changes.replaced();
    this.accounts.clear();
    this.sweepCursor = this.accounts.values();
    this.keysByHash.clear();
    this.shareTokens.clear();
    for (const account of accounts) {
      this.accounts.set(account.id, account);
      if (this.changes.enabled) observeAccount(this.changes, account);
      for (const key of account.keys.values()) this.keysByHash.set(key.hash, key);
      for (const share of account.shares.values()) this.shareTokens.set(share.token, { accountId: account.id, shareId: share.id });
    }
    this.ids.setState(streams.ids);
    this.keyValues.setState(streams.keyValues);
  }
}

export interface StoreStreams {
  ids: RngState;
  keyValues: RngState;
}
