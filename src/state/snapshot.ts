import { validationError } from '../engine/api-error.js';
import type { Simulation } from '../operations/context.js';
import { Account, type DeliverableRef } from '../store/account.js';
import type { OAuthStore } from '../oauth/oauth-store.js';
import { Build, type SavedBuild } from '../store/build-record.js';
import { restoredTransaction, savedTransaction } from '../ledger/transaction-record.js';
import { assertAccountReferences, assertOAuthReferences } from './snapshot-references.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, simulationSnapshot, type AccountSnapshot, type SimulationSnapshot } from './snapshot-schema.js';

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SimulationSnapshot } from './snapshot-schema.js';

/**
 * The whole simulation as plain JSON: accounts with everything they own (keys only by their
 * digest), the OAuth server's clients, grants and token digests, the clock, and where every
 * id stream stands, so a restored simulator goes on exactly where the saved one was and
 * reissues no id. Rate-limit windows are not kept: they last a minute. Generated content is
 * not kept either: it is a function of the seed and the build.
 */
export function takeSnapshot(sim: Simulation): SimulationSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    simulatorVersion: sim.version,
    seed: sim.seed,
    savedAt: sim.clock.realNow(),
    clock: sim.clock.snapshot(),
    streams: { ...sim.store.streams, correlationIds: sim.correlationIds.getState() },
    accounts: [...sim.store.accounts.values()].map(accountSnapshot),
    oauth: oauthSnapshot(sim.oauth.store),
  };
}

/**
 * Replaces the whole simulation with a snapshot's. Everything is checked and built aside
 * first, then swapped in at once: a snapshot that fails (400, with the path of the fault)
 * changes nothing.
 */
export function restoreSnapshot(sim: Simulation, input: unknown): void {
  const snapshot = parseSnapshot(input, sim.seed);
  const accounts = snapshot.accounts.map((a) => restoreAccount(a, sim.seed, snapshot.clock.now));
  // Built aside, indexed by id: the references are checked against them before anything is swapped in.
  assertAccountReferences(snapshot.accounts, accounts);
  sim.store.replaceAccounts(accounts, snapshot.streams);
  // Ids issued after the snapshot will be issued again: content cached under them is another build's.
  sim.builds.contentCache?.clear();
  sim.correlationIds.setState(snapshot.streams.correlationIds);
  restoreOAuth(sim.oauth.store, snapshot.oauth);
  sim.clock.restore(snapshot.clock, snapshot.savedAt);
}

/** The snapshot, or 400 VALIDATION_ERROR naming the first fields at fault. */
export function parseSnapshot(input: unknown, seed: string): SimulationSnapshot {
  const head = input as { format?: unknown; version?: unknown } | null;
  if (typeof head === 'object' && head !== null && head.format === SNAPSHOT_FORMAT && head.version !== SNAPSHOT_VERSION) {
    throw validationError([{ path: 'body.version', message: `is ${String(head.version)}; this simulator reads version ${SNAPSHOT_VERSION}` }]);
  }
  const parsed = simulationSnapshot.safeParse(input);
  if (!parsed.success) {
    throw validationError(parsed.error.issues.slice(0, 10).map((issue) => ({ path: issue.path.reduce<string>(joinPath, 'body'), message: issue.message })));
  }
  if (parsed.data.seed !== seed) {
    throw validationError([{ path: 'body.seed', message: `was saved by a simulator with seed "${parsed.data.seed}"; this one runs with "${seed}" (start it with --seed)` }]);
  }
  assertConsistent(parsed.data);
  assertOAuthReferences(parsed.data);
  return parsed.data;
}

/** What the indexes rebuilt from a snapshot rely on: ids, key digests and share tokens unique, keys in their own account. */
function assertConsistent(snapshot: SimulationSnapshot): void {
  const seen = { accounts: new Set<string>(), hashes: new Set<string>(), tokens: new Set<string>() };
  snapshot.accounts.forEach((account, i) => {
    const at = `body.accounts[${i}]`;
    if (seen.accounts.has(account.id)) throw validationError([{ path: `${at}.id`, message: 'names an account twice' }]);
    seen.accounts.add(account.id);
    for (const [name, list] of Object.entries(collections(account))) {
      const ids = new Set<string>();
      let lastSeq = 0;
      list.entries.forEach(([seq, record], j) => {
        if (seq <= lastSeq || seq >= list.nextSeq) throw validationError([{ path: `${at}.${name}.entries[${j}][0]`, message: 'positions must ascend and stay below nextSeq' }]);
        if (ids.has(record.id)) throw validationError([{ path: `${at}.${name}.entries[${j}][1].id`, message: 'is not unique' }]);
        lastSeq = seq;
        ids.add(record.id);
      });
    }
    account.keys.entries.forEach(([, key], j) => {
      if (key.accountId !== account.id || seen.hashes.has(key.hash)) {
        throw validationError([{ path: `${at}.keys.entries[${j}][1]`, message: 'must belong to its account and have a digest no other key has' }]);
      }
      seen.hashes.add(key.hash);
    });
    account.shares.entries.forEach(([, share], j) => {
      if (seen.tokens.has(share.token)) throw validationError([{ path: `${at}.shares.entries[${j}][1].token`, message: 'is not unique' }]);
      seen.tokens.add(share.token);
    });
  });
}

/** `body.accounts[0].builds`: the notation of every other validation error. */
function joinPath(path: string, part: PropertyKey): string {
  return typeof part === 'number' ? `${path}[${part}]` : `${path}.${String(part)}`;
}

function collections(a: AccountSnapshot) {
  return { keys: a.keys, transactions: a.transactions, targets: a.targets, builds: a.builds, library: a.library, shares: a.shares, images: a.images, audio: a.audio, chats: a.chats };
}

function accountSnapshot(account: Account): AccountSnapshot {
  return {
    id: account.id,
    name: account.name,
    createdAt: account.createdAt,
    balance: account.balance,
    openingBalance: account.openingBalance,
    lifetimePurchased: account.lifetimePurchased,
    lifetimeUsed: account.lifetimeUsed,
    idStream: account.idStreamState,
    keys: account.keys.snapshot(),
    transactions: mapped(account.transactions.snapshot(), savedTransaction),
    targets: account.targets.snapshot(),
    builds: mapped(account.builds.snapshot(), (build) => build.toSaved(account.id)),
    library: account.library.snapshot(),
    shares: account.shares.snapshot(),
    images: account.images.snapshot(),
    audio: account.audio.snapshot(),
    chats: account.chats.snapshot(),
    deliverables: [...account.deliverables].map(([id, build]) => [id, { buildId: build.id, pageIndex: build.pageOf(id) }] as [string, DeliverableRef]),
    audioByDeliverableVoice: [...account.audioByDeliverableVoice],
    slugs: [...account.slugs],
    idempotency: account.idempotency.snapshot(),
    purchaseIdempotency: account.purchaseIdempotency.snapshot(),
    pendingRefunds: account.pendingRefunds.map((p) => ({ ...p })),
  } as AccountSnapshot;
}

/** A collection's records in another form: saved builds and ledger entries are plain, the store's are compact. */
function mapped<A, B>(saved: { nextSeq: number; entries: Array<[number, A]> }, as: (record: A) => B): { nextSeq: number; entries: Array<[number, B]> } {
  return { nextSeq: saved.nextSeq, entries: saved.entries.map(([seq, record]) => [seq, as(record)]) };
}

function restoreAccount(saved: AccountSnapshot, seed: string, now: number): Account {
  const account = new Account(saved.id, saved.name, saved.createdAt, seed);
  account.balance = saved.balance;
  account.openingBalance = saved.openingBalance;
  account.lifetimePurchased = saved.lifetimePurchased;
  account.lifetimeUsed = saved.lifetimeUsed;
  account.idStreamState = saved.idStream;
  account.keys.restore(saved.keys);
  account.transactions.restore(mapped(saved.transactions, restoredTransaction));
  account.targets.restore(saved.targets);
  const builds = mapped(saved.builds, (b) => Build.fromSaved(b as SavedBuild));
  account.builds.restore(builds);
  for (const [seq, build] of builds.entries) account.buildIndex.add(seq, build, now);
  account.library.restore(saved.library);
  account.shares.restore(saved.shares);
  account.images.restore(saved.images);
  account.audio.restore(saved.audio);
  account.chats.restore(saved.chats);
  for (const [id, ref] of saved.deliverables) {
    const build = account.builds.get(ref.buildId);
    if (build) account.deliverables.set(id, build);
  }
  for (const [key, id] of saved.audioByDeliverableVoice) account.audioByDeliverableVoice.set(key, id);
  for (const [slug, id] of saved.slugs) account.slugs.set(slug, id);
  account.idempotency.restore(saved.idempotency);
  account.purchaseIdempotency.restore(saved.purchaseIdempotency);
  account.pendingRefunds.push(...saved.pendingRefunds.sort((a, b) => a.at - b.at));
  return account;
}

/**
 * The OAuth records, less those that name a record gone since (a client expired, a grant let
 * go by its table's cap): the server ignores them, and a restore refuses what does not resolve.
 */
function oauthSnapshot(store: OAuthStore): SimulationSnapshot['oauth'] {
  return {
    clients: [...store.clients.values()],
    pending: [...store.pending.values()].filter((p) => store.clients.has(p.clientId)),
    codes: [...store.codes].filter(([, code]) => store.clients.has(code.clientId)),
    grants: [...store.grants.values()],
    accessTokens: [...store.accessTokens].filter(([, token]) => store.grants.has(token.grantId)),
    refreshTokens: [...store.refreshTokens].filter(([, token]) => store.grants.has(token.grantId)),
  };
}

function restoreOAuth(store: OAuthStore, saved: SimulationSnapshot['oauth']): void {
  store.clients.clear();
  store.pending.clear();
  store.codes.clear();
  store.grants.clear();
  store.accessTokens.clear();
  store.refreshTokens.clear();
  for (const client of saved.clients) store.clients.set(client.clientId, client);
  for (const pending of saved.pending) store.pending.set(pending.id, pending);
  for (const [digest, code] of saved.codes) store.codes.set(digest, code);
  for (const grant of saved.grants) store.grants.set(grant.id, grant);
  for (const [digest, token] of saved.accessTokens) store.accessTokens.set(digest, token);
  for (const [digest, token] of saved.refreshTokens) store.refreshTokens.set(digest, token);
}
