import { savedClock, type ClockSetting } from '../clock/clock.js';
import { Rng, type RngState } from '../random/rng.js';
import type { AccountHeader } from '../store/account.js';
import { ACCOUNT_COLLECTIONS } from '../store/captured-tables.js';
import { liftSavedTasks } from '../state/mcp-tasks-snapshot.js';

/**
 * Recovery: the records of the write-ahead log applied, in order, to the checkpoint (a saved
 * simulation as plain JSON), which is then restored with every check a restore makes. Each
 * entry puts, removes or empties by key, or sets an account's own fields or a simulator-wide
 * value: applying it twice, or to a checkpoint that already holds it, changes nothing, which is
 * what lets a checkpoint be written while the simulation goes on (see checkpoint.ts).
 */

/** Draws each id stream is moved on after a crash: ids given from it since its last logged position, and more, are never given again. */
export const RESERVED_DRAWS = 4096;
/**
 * The same for correlation ids, given on every answer, reads too: far more, so that reads go on
 * being answered for a long while when the log cannot be written (their position is still
 * logged every `RESERVED_DRAWS / 2` draws while it can).
 */
export const CORRELATION_RESERVED_DRAWS = 1 << 18;

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Keys of the OAuth tables kept as records (the rest are [digest, record] pairs). */
const OAUTH_KEYED: Record<string, string> = { clients: 'clientId', pending: 'id', grants: 'id' };

/** What replay tells the start-up. */
export interface ReplayOutcome {
  /** Records applied. */
  records: number;
  /** The log ends with a clean stop: the id streams stand exactly where they were. */
  closedCleanly: boolean;
}

export class SnapshotPatch {
  private readonly accounts = new Map<string, Json>();
  private readonly tables = new Map<string, Map<string, Json>>();
  private closedCleanly = false;
  private records = 0;

  constructor(private readonly snapshot: Json) {
    // A checkpoint written before MCP tasks were records of their account: its task list goes to the accounts first.
    liftSavedTasks(snapshot);
    for (const account of snapshot.accounts as Json[]) this.accounts.set(account.id, account);
  }

  /** Applies one record; false when it ends replay (a restore never finished: nothing after it was acknowledged). */
  apply(record: unknown[]): boolean {
    this.records++;
    this.closedCleanly = false;
    for (const entry of record as Json[]) {
      switch (entry[0]) {
        case 'h': this.header(entry[1], entry[2]); break;
        case 'p': this.put(entry.slice(1, -2), entry[entry.length - 2], entry[entry.length - 1]); break;
        case 'd': this.table(entry.slice(1, -1)).delete(entry[entry.length - 1]); break;
        case 'x': this.table(entry.slice(1)).clear(); break;
        case 'v': this.value(entry[1], entry[2]); break;
        case 'R': return false;
        case 'Z': this.closedCleanly = true; break;
        default: throw new Error(`unknown log entry ${JSON.stringify(entry[0])}`);
      }
    }
    return true;
  }

  /** The snapshot with every record applied, its derived indexes rebuilt, ready to restore. */
  finish(): ReplayOutcome {
    for (const [address, rows] of this.tables) this.writeBack(JSON.parse(address) as string[], rows);
    for (const account of this.snapshot.accounts as Json[]) deriveIndexes(account);
    this.dropDangling();
    if (!this.closedCleanly) this.reserveStreams();
    return { records: this.records, closedCleanly: this.closedCleanly };
  }

  private header(id: string, h: AccountHeader): void {
    let account = this.accounts.get(id);
    if (!account) {
      account = { id, deliverables: [], audioByDeliverableVoice: [], slugs: [], idempotency: [], purchaseIdempotency: [] };
      for (const name of ACCOUNT_COLLECTIONS) account[name] = { nextSeq: 1, entries: [] };
      this.accounts.set(id, account);
      this.snapshot.accounts.push(account);
    }
    Object.assign(account, {
      name: h.name, createdAt: h.createdAt, balance: h.balance, openingBalance: h.openingBalance,
      lifetimePurchased: h.lifetimePurchased, lifetimeUsed: h.lifetimeUsed, idStream: h.idStream, pendingRefunds: h.pendingRefunds,
    });
    // A header logged before a collection existed names no position for it: it keeps its own.
    ACCOUNT_COLLECTIONS.forEach((name, i) => (account[name].nextSeq = h.nextSeqs[i] ?? account[name].nextSeq));
    if (h.clock === null) delete account.clock;
    else account.clock = savedClock(h.clock, this.snapshot.savedAt);
  }

  private value(name: string, value: Json): void {
    if (name === 'clock') this.snapshot.clock = savedClock(value as ClockSetting, this.snapshot.savedAt);
    else if (name === 'streams') this.snapshot.streams = value;
    else if (name === 'extras') {
      Object.assign(this.snapshot, value);
      // Logged before tasks were records of their account: the whole list of them, as it then stood.
      liftSavedTasks(this.snapshot);
    }
    else throw new Error(`unknown logged value ${name}`);
  }

  /** A put keeps the record's place (a record moved to the end is logged removed, then put). */
  private put(address: string[], key: string, value: Json): void {
    this.table(address).set(key, value);
  }

  /** The rows of a table by key, read once from the snapshot when the log first names it. */
  private table(address: string[]): Map<string, Json> {
    const id = JSON.stringify(address);
    let rows = this.tables.get(id);
    if (rows) return rows;
    rows = new Map();
    const [kind, a, b] = address;
    if (kind === 'c') for (const [seq, record] of this.account(a as string)[b as string].entries) rows.set(record.id, [seq, record]);
    if (kind === 'm') for (const [key, buildId, at] of this.account(a as string)[b as string]) rows.set(key, [buildId, at]);
    if (kind === 'o') {
      const field = OAUTH_KEYED[a as string];
      for (const row of this.snapshot.oauth[a as string]) {
        if (field) rows.set(row[field], row);
        else rows.set(row[0], row[1]);
      }
    }
    this.tables.set(id, rows);
    return rows;
  }

  private writeBack([kind, a, b]: string[], rows: Map<string, Json>): void {
    if (kind === 'c') {
      const collection = this.account(a as string)[b as string];
      collection.entries = [...rows.values()].sort((x, y) => x[0] - y[0]);
    } else if (kind === 'm') {
      this.account(a as string)[b as string] = [...rows].map(([key, [buildId, at]]) => [key, buildId, at]);
    } else {
      this.snapshot.oauth[a as string] = OAUTH_KEYED[a as string] ? [...rows.values()] : [...rows];
    }
  }

  private account(id: string): Json {
    const account = this.accounts.get(id);
    if (!account) throw new Error(`the log names account ${id} before it was made`);
    return account;
  }

  /** What the OAuth server ignores and a restore refuses: records naming a client or grant let go since (as `OAuthStore.save` filters). */
  private dropDangling(): void {
    const oauth = this.snapshot.oauth;
    const clients = new Set((oauth.clients as Json[]).map((c) => c.clientId));
    const grants = new Set((oauth.grants as Json[]).map((g) => g.id));
    oauth.pending = oauth.pending.filter((p: Json) => clients.has(p.clientId));
    oauth.codes = oauth.codes.filter(([, c]: Json) => clients.has(c.clientId));
    oauth.accessTokens = oauth.accessTokens.filter(([, t]: Json) => grants.has(t.grantId));
    oauth.refreshTokens = oauth.refreshTokens.filter(([, t]: Json) => grants.has(t.grantId));
  }

  /** After a crash: every id stream moves past what it may have given since its last logged position. */
  private reserveStreams(): void {
    const streams = this.snapshot.streams;
    for (const name of ['ids', 'keyValues']) streams[name] = advanced(streams[name]);
    streams.correlationIds = advanced(streams.correlationIds, CORRELATION_RESERVED_DRAWS);
    for (const account of this.snapshot.accounts as Json[]) account.idStream = advanced(account.idStream);
  }
}

/** A stream's position `draws` on. */
export function advanced(state: RngState, draws = RESERVED_DRAWS): RngState {
  const rng = new Rng('reserve');
  rng.setState(state);
  for (let i = 0; i < draws; i++) rng.nextUint32();
  return rng.getState();
}

/** The indexes an account's records decide: deliverables (from builds), slugs (targets), listen versions (audio). */
function deriveIndexes(account: Json): void {
  account.deliverables = (account.builds.entries as Json[]).flatMap(([, b]) => (b.deliverableIds as string[]).map((id, pageIndex) => [id, { buildId: b.id, pageIndex }]));
  account.slugs = (account.targets.entries as Json[]).map(([, t]) => [t.slug, t.id]);
  account.audioByDeliverableVoice = (account.audio.entries as Json[]).map(([, a]) => [`${a.deliverableId}:${a.voice}`, a.id]);
}
