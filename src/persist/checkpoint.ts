import { savedClock } from '../clock/clock.js';
import { temporaryName } from './private-file.js';
import type { SimulatorState } from '../state/simulator-state.js';
import { snapshotHead } from '../state/snapshot.js';
import type { Account } from '../store/account.js';
import { ACCOUNT_COLLECTIONS, IDEMPOTENCY_INDEXES, savedRecord } from '../store/captured-tables.js';
import type { OrderedCollection } from '../store/ordered-collection.js';
import { CREATE_EXCLUSIVE, storageIo as io } from './storage-io.js';

/**
 * A checkpoint: the whole simulation in the saved format, written a slice at a time while the
 * server goes on answering. It reads the live records (no copy of the state is made), one at a
 * time, so it is "fuzzy": a record changed while it is written may appear as it was or as it
 * became. That is what the log is for: every change since the checkpoint began is in the log
 * segment it names (`walSegment`), and replaying that segment over it gives the state exactly.
 * Collections are walked by list position, so records added or removed meanwhile never make
 * the walk skip one.
 */

/** Longest a slice of serialization holds the event loop. */
const SLICE_MS = 2;
const CHUNK_BYTES = 256 * 1024;

export class CheckpointAborted extends Error {}

/** The saved simulation as pieces of JSON text, read from the live state as they are asked for. */
export function* checkpointPieces(sim: SimulatorState, walSegment: number): Generator<string> {
  const { savedAt, ...rest } = snapshotHead(sim);
  // The clock from its setting, as of savedAt exactly (not read again a moment later).
  const head = { ...rest, savedAt, walSegment, clock: savedClock(sim.clock.setting(), savedAt) };
  yield `${JSON.stringify(head).slice(0, -1)},"accounts":[`;
  let first = true;
  for (const account of sim.store.accounts.values()) {
    yield first ? '' : ',';
    first = false;
    yield* accountPieces(account, savedAt);
  }
  yield '],"oauth":{';
  const { store } = sim.oauth;
  const tables = { clients: store.clients, pending: store.pending, codes: store.codes, grants: store.grants, accessTokens: store.accessTokens, refreshTokens: store.refreshTokens };
  let firstTable = true;
  for (const [name, table] of Object.entries(tables)) {
    yield `${firstTable ? '' : ','}"${name}":[`;
    firstTable = false;
    const pairs = name === 'codes' || name === 'accessTokens' || name === 'refreshTokens';
    let firstRow = true;
    for (const [key, value] of Map.prototype.entries.call(table) as IterableIterator<[string, unknown]>) {
      yield (firstRow ? '' : ',') + JSON.stringify(pairs ? [key, value] : value);
      firstRow = false;
    }
    yield ']';
  }
  yield '}}\n';
}

function* accountPieces(account: Account, savedAt: number): Generator<string> {
  const own = {
    id: account.id, name: account.name, createdAt: account.createdAt, balance: account.balance, openingBalance: account.openingBalance,
    lifetimePurchased: account.lifetimePurchased, lifetimeUsed: account.lifetimeUsed, idStream: account.idStreamState,
    pendingRefunds: account.pendingRefunds,
    ...(account.clock === null ? {} : { clock: savedClock(account.clock.setting(), savedAt) }),
  };
  yield JSON.stringify(own).slice(0, -1);
  for (const name of ACCOUNT_COLLECTIONS) {
    const collection = account[name] as unknown as OrderedCollection<{ id: string }>;
    yield `,"${name}":{"entries":[`;
    let seq = 0;
    for (let entry = collection.entryAfter(seq); entry; entry = collection.entryAfter(seq)) {
      yield (seq === 0 ? '' : ',') + JSON.stringify([entry[0], savedRecord(account, name, entry[1])]);
      seq = entry[0];
    }
    // Read last: above every position written, whatever was added meanwhile.
    yield `],"nextSeq":${collection.nextPosition}}`;
  }
  yield* rows('deliverables', account.deliverables.entries(), ([id, build]) => [id, { buildId: build.id, pageIndex: build.pageOf(id) }]);
  yield* rows('audioByDeliverableVoice', account.audioByDeliverableVoice.entries(), (row) => row);
  yield* rows('slugs', account.slugs.entries(), (row) => row);
  for (const name of IDEMPOTENCY_INDEXES) yield* rows(name, account[name].liveEntries(), ([key, e]) => [key, e.buildId, e.createdAt]);
  yield '}';
}

function* rows<T>(name: string, live: IterableIterator<T>, form: (row: T) => unknown): Generator<string> {
  yield `,"${name}":[`;
  let first = true;
  for (const row of live) {
    yield (first ? '' : ',') + JSON.stringify(form(row));
    first = false;
  }
  yield ']';
}

const writeAll = (fd: number, text: string) =>
  new Promise<void>((resolve, reject) => {
    const data = Buffer.from(text, 'utf8');
    const from = (offset: number) =>
      io.write(fd, data, offset, data.length - offset, null, (error, n) => {
        if (error) return reject(error);
        if (n <= 0) return reject(Object.assign(new Error('no byte could be written'), { code: 'ENOSPC' }));
        return offset + n < data.length ? from(offset + n) : resolve();
      });
    from(0);
  });
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes `pieces` to `path` as a private file (0600, created exclusively under a temporary
 * name, never through a link), in slices of a few milliseconds with the event loop free in
 * between, then flushes it and renames it over the old one. `aborted` is asked between slices;
 * `beforeRename` runs once the file is whole and on disk, and may still call it off (by
 * throwing): the rename is the moment the checkpoint takes effect (its directory entry still to
 * be flushed by the caller). Answers the bytes written.
 */
export async function writeCheckpoint(path: string, pieces: Iterator<string>, aborted: () => boolean, beforeRename?: () => Promise<void>): Promise<number> {
  const temporary = temporaryName(path);
  const fd = io.openSync(temporary, CREATE_EXCLUSIVE, 0o600);
  let bytes = 0;
  let renamed = false;
  try {
    for (let done = false; !done; ) {
      const started = performance.now();
      const chunk: string[] = [];
      let size = 0;
      while (size < CHUNK_BYTES && performance.now() - started < SLICE_MS) {
        const next = pieces.next();
        if (next.done) {
          done = true;
          break;
        }
        chunk.push(next.value);
        size += next.value.length;
      }
      const text = chunk.join('');
      bytes += Buffer.byteLength(text);
      await writeAll(fd, text);
      await yieldToEventLoop();
      if (aborted()) throw new CheckpointAborted('the checkpoint was abandoned');
    }
    await new Promise<void>((resolve, reject) => io.fsync(fd, (error) => (error ? reject(error) : resolve())));
    io.closeSync(fd);
    await beforeRename?.();
    if (aborted()) throw new CheckpointAborted('the checkpoint was abandoned');
    io.renameSync(temporary, path);
    renamed = true;
    // In effect from here on: the rename reaching the disk is the caller's to see to.
    return bytes;
  } finally {
    if (!renamed) {
      try {
        io.closeSync(fd);
      } catch {
        // closed already
      }
      try {
        io.unlinkSync(temporary);
      } catch {
        // gone
      }
    }
  }
}
