import { validationError } from '../errors/api-error.js';
import type { SimulatorState } from './simulator-state.js';
import { Account } from '../store/account.js';
import { RECORDS_PER_STEP } from '../store/ordered-collection.js';
import { restoredOwnClock } from '../clock/account-clock.js';
import { assertAccountReferences, assertOAuthReferences } from './snapshot-references.js';
import { placeMcpTasks } from './mcp-tasks-snapshot.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_PLAN, SNAPSHOT_VERSION, simulationSnapshot, type AccountSnapshot, type SimulationSnapshot } from './snapshot-schema.js';
import { checkInSteps } from './snapshot-check.js';
import { runAtOnce, type Steps } from './steps.js';

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SimulationSnapshot } from './snapshot-schema.js';

/**
 * The whole simulation as plain JSON: accounts with everything they own (keys only by their
 * digest), the OAuth server's clients, grants and token digests, the clock, and where every
 * id stream stands, so a restored simulator goes on exactly where the saved one was and
 * reissues no id. Rate-limit windows are not kept: they last a minute. Generated content is
 * not kept either: it is a function of the seed and the build.
 */
export function takeSnapshot(sim: SimulatorState): SimulationSnapshot {
  return {
    ...snapshotHead(sim),
    // The saved shapes are the schema's, bar readonly tuples: the schema checks what comes back.
    accounts: sim.store.saveAccounts() as SimulationSnapshot['accounts'],
    oauth: sim.oauth.store.save(),
  };
}

/**
 * Everything of a snapshot but the accounts and the OAuth tables: small, taken at once. A
 * checkpoint writes it as it is (and the state log records a change to any field it does not
 * know by name), so whatever is added here is kept by a state file too.
 */
export function snapshotHead(sim: SimulatorState) {
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    simulatorVersion: sim.version,
    seed: sim.seed,
    savedAt: sim.clock.realNow(),
    clock: sim.clock.snapshot(),
    streams: { ...sim.store.streams, correlationIds: sim.correlationIds.getState() },
  } satisfies Omit<SimulationSnapshot, 'accounts' | 'oauth' | 'mcpTasks'>;
}

/** The fields of the head a state log records by name; any other is recorded whole when it changes. */
export const HEAD_FIELDS_LOGGED_BY_NAME: ReadonlySet<string> = new Set(['format', 'version', 'simulatorVersion', 'seed', 'savedAt', 'clock', 'streams']);

/**
 * Replaces the whole simulation with a snapshot's. Everything is checked and built aside
 * first, then swapped in at once: a snapshot that fails (400, with the path of the fault)
 * changes nothing.
 */
export function restoreSnapshot(sim: SimulatorState, input: unknown): void {
  runAtOnce(restoreSteps(sim, input));
}

/**
 * `restoreSnapshot` as steps: checked a record at a time, each account built aside in a step
 * of its own; only the swap at the end (the indexes of keys and share tokens, the OAuth
 * tables) is one piece of work.
 */
export function* restoreSteps(sim: SimulatorState, input: unknown): Steps<void> {
  const snapshot = yield* parseSnapshotSteps(input, sim.seed);
  const accounts: Account[] = [];
  for (const saved of snapshot.accounts) {
    // An account with its own clock indexes its builds, and goes on, by its own time.
    const account = yield* Account.restoreSteps(saved, sim.seed, saved.clock?.now ?? snapshot.clock.now);
    if (saved.clock) account.clock = restoredOwnClock(sim.clock, saved.clock, snapshot.savedAt);
    accounts.push(account);
    yield;
  }
  // Built aside, indexed by id: the references are checked against them before anything is swapped in.
  yield* assertAccountReferences(snapshot.accounts, accounts);
  sim.store.replaceAccounts(accounts, snapshot.streams);
  // Ids issued after the snapshot will be issued again: content cached under them is another build's.
  sim.builds.contentCache?.clear();
  sim.correlationIds.setState(snapshot.streams.correlationIds);
  sim.oauth.store.restore(snapshot.oauth);
  sim.clock.restore(snapshot.clock, snapshot.savedAt);
}

/** The snapshot, or 400 VALIDATION_ERROR naming the first fields at fault. */
export function parseSnapshot(input: unknown, seed: string): SimulationSnapshot {
  return runAtOnce(parseSnapshotSteps(input, seed));
}

function* parseSnapshotSteps(input: unknown, seed: string): Steps<SimulationSnapshot> {
  const head = input as { format?: unknown; version?: unknown } | null;
  if (typeof head === 'object' && head !== null && head.format === SNAPSHOT_FORMAT && head.version !== SNAPSHOT_VERSION) {
    throw validationError([{ path: 'body.version', message: `is ${String(head.version)}; this simulator reads version ${SNAPSHOT_VERSION}` }]);
  }
  const snapshot = (yield* checkInSteps(simulationSnapshot, input, SNAPSHOT_PLAN)) as SimulationSnapshot;
  if (snapshot.seed !== seed) {
    throw validationError([{ path: 'body.seed', message: `was saved by a simulator with seed "${snapshot.seed}"; this one runs with "${seed}" (start it with --seed)` }]);
  }
  const seen: Seen = { accounts: new Set(), hashes: new Set(), tokens: new Set() };
  for (const [i, account] of snapshot.accounts.entries()) {
    yield* assertConsistent(account, `body.accounts[${i}]`, seen);
  }
  assertOAuthReferences(snapshot);
  placeMcpTasks(snapshot);
  return snapshot;
}

interface Seen {
  accounts: Set<string>;
  hashes: Set<string>;
  tokens: Set<string>;
}

/** What the indexes rebuilt from a snapshot rely on: ids, key digests and share tokens unique, keys in their own account. */
function* assertConsistent(account: AccountSnapshot, at: string, seen: Seen): Steps<void> {
  if (seen.accounts.has(account.id)) throw validationError([{ path: `${at}.id`, message: 'names an account twice' }]);
  seen.accounts.add(account.id);
  for (const [name, list] of Object.entries(collections(account))) {
    const ids = new Set<string>();
    let lastSeq = 0;
    for (const [j, [seq, record]] of list.entries.entries()) {
      if (seq <= lastSeq || seq >= list.nextSeq) throw validationError([{ path: `${at}.${name}.entries[${j}][0]`, message: 'positions must ascend and stay below nextSeq' }]);
      if (ids.has(record.id)) throw validationError([{ path: `${at}.${name}.entries[${j}][1].id`, message: 'is not unique' }]);
      lastSeq = seq;
      ids.add(record.id);
      if (j % RECORDS_PER_STEP === RECORDS_PER_STEP - 1) yield;
    }
  }
  for (const [j, [, key]] of account.keys.entries.entries()) {
    if (key.accountId !== account.id || seen.hashes.has(key.hash)) {
      throw validationError([{ path: `${at}.keys.entries[${j}][1]`, message: 'must belong to its account and have a digest no other key has' }]);
    }
    seen.hashes.add(key.hash);
  }
  for (const [j, [, share]] of account.shares.entries.entries()) {
    if (seen.tokens.has(share.token)) throw validationError([{ path: `${at}.shares.entries[${j}][1].token`, message: 'is not unique' }]);
    seen.tokens.add(share.token);
  }
  yield;
}

function collections(a: AccountSnapshot) {
  return { keys: a.keys, transactions: a.transactions, targets: a.targets, builds: a.builds, library: a.library, shares: a.shares, images: a.images, audio: a.audio, chats: a.chats, mcpTasks: a.mcpTasks };
}
