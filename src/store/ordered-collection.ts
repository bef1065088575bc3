import { notFound, validationError } from '../errors/api-error.js';

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface CollectionSnapshot<T> {
  nextSeq: number;
  /** [position, record], ascending by position. */
  entries: Array<[number, T]>;
}

/** Records a step of `restoreSteps` indexes: well under a millisecond's work. */
export const RECORDS_PER_STEP = 1024;

/**
 * Told of every record the collection adds, removes or hands out (which its caller may change
 * in place), and of its emptying: how a write-ahead log learns what changed (see ChangeCapture).
 * Collections of records nobody changes once made (builds, ledger entries) report no reads.
 */
export interface CollectionObserver<T> {
  readonly reportsReads: boolean;
  touched(id: string, item: T | undefined): void;
  emptied(): void;
}

/** The fields of a collection without an index: shared, as collections only read them. */
const NO_FIELDS: Readonly<Record<string, never>> = Object.freeze({});

/**
 * The records of one kind that one account owns: lookup by id, newest-first pages with opaque
 * cursors that stay valid when records are added or removed in between. Records and their
 * list positions sit in two parallel arrays (no wrapper object per record: a million builds
 * would pay 32 bytes each for it), and the id map holds positions (small integers, unboxed).
 */
export class OrderedCollection<T extends { id: string }> {
  /** Ascending by position (insertion order), parallel to `seqs`. */
  private readonly items: T[] = [];
  /**
   * Each record's position; null while positions run without a gap from `firstSeq` (nothing
   * removed since the collection was last empty), which spares a million builds 8 bytes each.
   */
  private seqs: number[] | null = null;
  private firstSeq = 1;
  /** Made with the first record: a collection an account never uses holds no map. */
  private byId: Map<string, number> | null = null;
  private nextSeq = 1;
  /** Per indexed field: value → the positions of the records that have it, ascending (made with the first record). */
  private indexes: Map<string, Map<string, number[]>> | null = null;
  /** Set while a state file is kept (see CollectionObserver). */
  observer: CollectionObserver<T> | null = null;

  /**
   * `resource` names the records in a 404, e.g. "build". `indexBy` names fields that never
   * change once a record is made (a transaction's type, a share's deliverable): lists filtered
   * on them read only the records that match, whatever the collection's length.
   */
  constructor(
    private readonly resource: string,
    private readonly indexBy: Readonly<Record<string, (item: T) => string>> = NO_FIELDS,
  ) {}

  get size(): number {
    return this.byId?.size ?? 0;
  }

  add(item: T): T {
    this.observer?.touched(item.id, undefined);
    const seq = this.nextSeq++;
    if (this.seqs === null && this.items.length === 0) this.firstSeq = seq;
    else if (this.seqs === null && seq !== this.firstSeq + this.items.length) this.seqs = this.positions();
    this.items.push(item);
    this.seqs?.push(seq);
    (this.byId ??= new Map()).set(item.id, seq);
    this.indexItem(item, seq);
    return item;
  }

  get(id: string): T | undefined {
    const item = this.peek(id);
    if (item !== undefined && this.observer?.reportsReads) this.observer.touched(id, item);
    return item;
  }

  /** The record, read without reporting it handed out: for the change capture and the checkpoint. */
  peek(id: string): T | undefined {
    const seq = this.byId?.get(id);
    return seq === undefined ? undefined : this.itemAt(seq);
  }

  /** Where positions go on from: above every record's. */
  get nextPosition(): number {
    return this.nextSeq;
  }

  /** The record with the lowest position above `afterSeq`, with its position: a walk that records added or removed meanwhile cannot derail. */
  entryAfter(afterSeq: number): [number, T] | undefined {
    const at = this.indexBelow(afterSeq + 1) + 1;
    return at < this.items.length ? [this.seqAt(at), this.items[at] as T] : undefined;
  }

  /** The record, or 404 NOT_FOUND: another account's id is as unknown as one never issued. */
  require(id: string): T {
    const item = this.get(id);
    if (item === undefined) throw notFound(this.resource, id);
    return item;
  }

  remove(id: string): boolean {
    const seq = this.byId?.get(id);
    if (seq === undefined || this.byId === null) return false;
    const at = this.indexOfSeq(seq);
    const item = this.items[at] as T;
    this.observer?.touched(id, item);
    this.byId.delete(id);
    if (at !== this.items.length - 1) this.seqs ??= this.positions();
    this.items.splice(at, 1);
    this.seqs?.splice(at, 1);
    for (const [field, seqs] of this.indexes ?? []) {
      const list = seqs.get((this.indexBy[field] as (item: T) => string)(item));
      const found = list ? list.indexOf(seq) : -1;
      if (list && found !== -1) list.splice(found, 1);
    }
    return true;
  }

  /** Newest first; `cursor` is the `nextCursor` of the previous page. */
  page(limit: number, cursor: string | undefined, keep: (item: T) => boolean = () => true): Page<T> {
    let i = cursor === undefined ? this.items.length - 1 : this.indexBelow(decodeCursor(cursor));
    const data: T[] = [];
    let lastSeq = 0;
    for (; i >= 0 && data.length < limit; i--) {
      const item = this.items[i] as T;
      if (keep(item)) {
        data.push(item);
        lastSeq = this.seqAt(i);
      }
    }
    // Only promise a next page when one really exists.
    let more = false;
    for (; i >= 0; i--) {
      if (keep(this.items[i] as T)) {
        more = true;
        break;
      }
    }
    return this.handedOut({ data, nextCursor: more ? encodeCursor(lastSeq) : null });
  }

  /** A page's records are handed out to the caller: the observer hears of each. */
  private handedOut(page: Page<T>): Page<T> {
    if (this.observer?.reportsReads) for (const item of page.data) this.observer.touched(item.id, item);
    return page;
  }

  /** The records with their positions, so a restored collection keeps its cursors valid. */
  snapshot(): CollectionSnapshot<T> {
    return { nextSeq: this.nextSeq, entries: this.items.map((item, i) => [this.seqAt(i), item]) };
  }

  /** Replaces every record with a snapshot's (entries ascending by position), pausing after about a thousand: a restore builds it aside, never live meanwhile. */
  *restoreSteps(snapshot: CollectionSnapshot<T>): Generator<void, void, void> {
    this.clear();
    const seqs: number[] = [];
    for (const [seq, item] of snapshot.entries) {
      this.items.push(item);
      seqs.push(seq);
      (this.byId ??= new Map()).set(item.id, seq);
      this.indexItem(item, seq);
      if (seqs.length % RECORDS_PER_STEP === 0) yield;
    }
    const first = seqs[0] ?? 1;
    const gapless = seqs.every((seq, i) => seq === first + i);
    this.seqs = gapless ? null : seqs;
    this.firstSeq = first;
    this.nextSeq = snapshot.nextSeq;
  }

  /**
   * Drops every record. Positions go on from where they were, so a cursor handed out before
   * cannot name a record added after.
   */
  clear(): void {
    this.observer?.emptied();
    this.items.length = 0;
    this.seqs = null;
    this.byId = null;
    this.indexes = null;
  }

  /** The list position of a record, or undefined. */
  seqOf(id: string): number | undefined {
    return this.byId?.get(id);
  }

  /**
   * A newest-first page read only from `seqs` (ascending positions, as an index keeps them),
   * kept by `keep`: a filtered list costs what it returns, not the collection's length.
   */
  pageOf(seqs: readonly number[], limit: number, cursor: string | undefined, keep: (item: T) => boolean): Page<T> {
    let i = seqs.length - 1;
    if (cursor !== undefined) {
      const below = decodeCursor(cursor);
      let lo = 0;
      let hi = seqs.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((seqs[mid] as number) < below) lo = mid + 1;
        else hi = mid;
      }
      i = lo - 1;
    }
    const data: T[] = [];
    let lastSeq = 0;
    let more = false;
    for (; i >= 0; i--) {
      const seq = seqs[i] as number;
      const item = this.itemAt(seq);
      if (!item || !keep(item)) continue;
      if (data.length === limit) {
        more = true;
        break;
      }
      data.push(item);
      lastSeq = seq;
    }
    return this.handedOut({ data, nextCursor: more ? encodeCursor(lastSeq) : null });
  }

  /** A newest-first page of the records whose indexed `field` is `value` (see `indexBy`), kept by `keep`. */
  pageBy(field: string, value: string, limit: number, cursor: string | undefined, keep: (item: T) => boolean = () => true): Page<T> {
    return this.pageOf(this.positionsOf(field, value), limit, cursor, keep);
  }

  /** Every record whose indexed `field` is `value`, oldest first. */
  valuesBy(field: string, value: string): T[] {
    const items = this.positionsOf(field, value).map((seq) => this.itemAt(seq) as T);
    if (this.observer?.reportsReads) for (const item of items) this.observer.touched(item.id, item);
    return items;
  }

  values(): IterableIterator<T> {
    return this.observer?.reportsReads ? this.reportedValues(this.observer) : this.items.values();
  }

  private *reportedValues(observer: CollectionObserver<T>): IterableIterator<T> {
    for (const item of this.items) {
      observer.touched(item.id, item);
      yield item;
    }
  }

  private positionsOf(field: string, value: string): readonly number[] {
    if (!Object.hasOwn(this.indexBy, field)) throw new Error(`${this.resource}: no index on ${field}`);
    return this.indexes?.get(field)?.get(value) ?? [];
  }

  private indexItem(item: T, seq: number): void {
    for (const field in this.indexBy) {
      const indexes = (this.indexes ??= new Map());
      let seqs = indexes.get(field);
      if (!seqs) indexes.set(field, (seqs = new Map()));
      const value = (this.indexBy[field] as (item: T) => string)(item);
      const list = seqs.get(value);
      if (list) list.push(seq);
      else seqs.set(value, [seq]);
    }
  }

  private itemAt(seq: number): T | undefined {
    const at = this.indexOfSeq(seq);
    return at < this.items.length && this.seqAt(at) === seq ? this.items[at] : undefined;
  }

  /** Index of the last record whose position is below `seq`, or -1: a binary search, about 20 steps for a million. */
  private indexBelow(seq: number): number {
    const seqs = this.seqs;
    if (seqs === null) return Math.min(this.items.length, Math.max(0, seq - this.firstSeq)) - 1;
    let lo = 0;
    let hi = seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((seqs[mid] as number) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  private seqAt(i: number): number {
    return this.seqs === null ? this.firstSeq + i : (this.seqs[i] as number);
  }

  /** The positions written out, for when they stop running without a gap. */
  private positions(): number[] {
    return Array.from({ length: this.items.length }, (_, i) => this.firstSeq + i);
  }

  private indexOfSeq(seq: number): number {
    return this.indexBelow(seq) + 1;
  }
}

const CURSOR_PREFIX = 'c1.';
/** Ten base-36 digits at most, as openapi.yaml's cursor pattern says: far beyond any list's length. */
const MAX_CURSOR_SEQ = 36 ** 10 - 1;

function encodeCursor(seq: number): string {
  return `${CURSOR_PREFIX}${seq.toString(36)}`;
}

function decodeCursor(cursor: string): number {
  const seq = cursor.startsWith(CURSOR_PREFIX) ? parseInt(cursor.slice(CURSOR_PREFIX.length), 36) : NaN;
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > MAX_CURSOR_SEQ || encodeCursor(seq) !== cursor) {
    throw validationError([{ path: 'query.cursor', message: 'is not a cursor this list returned' }]);
  }
  return seq;
}
