import { toIso } from '../clock/clock.js';
import { redactBody } from './body-redaction.js';
import { redactUrl } from './url-redaction.js';

/** Requests kept by default: enough for a test suite's run, small enough to keep in memory. */
export const DEFAULT_JOURNAL_SIZE = 1000;
/**
 * Live feeds open at once. Each costs a little memory and a write per entry; the adapter cuts
 * off a feed whose client reads too slowly, and this caps how many there can be.
 */
export const MAX_JOURNAL_FEEDS = 64;

export interface JournalEntry {
  seq: number;
  /** Virtual time at which the request arrived. */
  at: string;
  method: string;
  /** Path and query, with keys and share tokens redacted. */
  url: string;
  operationId: string | null;
  accountId: string | null;
  keyHint: string | null;
  status: number;
  errorCode: string | null;
  durationMs: number;
  correlationId: string;
  /** The fault rule that made this response (`prefer` for a Prefer header), or null for a real one. */
  injected: string | null;
  requestBody: string | null;
  responseBody: string | null;
}

export interface JournalQuery {
  accountId?: string;
  operationId?: string;
  status?: number;
  correlationId?: string;
  /** Entries at or after this virtual instant (ms). */
  since?: number;
  limit: number;
}

export type JournalFilter = Omit<JournalQuery, 'limit' | 'since'>;

export function entryMatches(entry: JournalEntry, q: JournalFilter): boolean {
  return (q.accountId === undefined || entry.accountId === q.accountId)
    && (q.operationId === undefined || entry.operationId === q.operationId)
    && (q.status === undefined || entry.status === q.status)
    && (q.correlationId === undefined || entry.correlationId === q.correlationId);
}

interface Subscriber {
  send: (entry: JournalEntry) => void;
  end: () => void;
}

/**
 * Every request and its response, newest last, in a ring of bounded size: what a client
 * really sent, for the developer who wonders why it got a 400. Secrets never enter it: keys
 * appear as hints, and bodies and URLs are redacted before they are stored.
 */
export class Journal {
  private readonly ring: Array<JournalEntry | undefined>;
  private next = 0;
  private seq = 0;
  private readonly subscribers = new Set<Subscriber>();

  constructor(
    readonly size = DEFAULT_JOURNAL_SIZE,
    readonly maxFeeds = MAX_JOURNAL_FEEDS,
  ) {
    this.ring = new Array<JournalEntry | undefined>(Math.max(1, size));
  }

  get enabled(): boolean {
    return this.size > 0;
  }

  record(entry: Omit<JournalEntry, 'seq' | 'at' | 'url' | 'requestBody' | 'responseBody'> & { now: number; url: string; requestBody: string | null; responseBody: string | null }): void {
    if (this.size <= 0) return;
    const { now, url, requestBody, responseBody, ...rest } = entry;
    const kept: JournalEntry = {
      seq: ++this.seq,
      at: toIso(now),
      url: redactUrl(url),
      ...rest,
      requestBody: requestBody === null ? null : redactBody(requestBody),
      responseBody: responseBody === null ? null : redactBody(responseBody),
    };
    this.ring[this.next] = kept;
    this.next = (this.next + 1) % this.ring.length;
    for (const subscriber of this.subscribers) subscriber.send(kept);
  }

  /** Newest first, at most `limit`. */
  query(q: JournalQuery): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= this.ring.length && out.length < q.limit; i++) {
      const entry = this.ring[(this.next - i + this.ring.length) % this.ring.length];
      if (!entry) break;
      if (q.since !== undefined && Date.parse(entry.at) < q.since) break;
      if (entryMatches(entry, q)) out.push(entry);
    }
    return out;
  }

  /** Forgets one account's entries, or all. */
  clear(accountId?: string): void {
    for (let i = 0; i < this.ring.length; i++) {
      if (accountId === undefined || this.ring[i]?.accountId === accountId) this.ring[i] = undefined;
    }
    // Keep the ring contiguous: a query stops at the first hole.
    const kept = this.ring.filter((e): e is JournalEntry => e !== undefined).sort((a, b) => a.seq - b.seq);
    this.ring.fill(undefined);
    kept.forEach((e, i) => (this.ring[i] = e));
    this.next = kept.length % this.ring.length;
  }

  /** Entries kept after `seq`, oldest first: what a live feed that reconnects has missed. */
  after(seq: number, filter: JournalFilter): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= this.ring.length; i++) {
      const entry = this.ring[(this.next - i + this.ring.length) % this.ring.length];
      if (!entry || entry.seq <= seq) break;
      if (entryMatches(entry, filter)) out.push(entry);
    }
    return out.reverse();
  }

  /** Live feeds open now. */
  get feeds(): number {
    return this.subscribers.size;
  }

  /** Whether another live feed may open (see MAX_JOURNAL_FEEDS). */
  get feedsFull(): boolean {
    return this.subscribers.size >= this.maxFeeds;
  }

  /** Told of every new entry until the returned function is called; `end` when the journal ends its feeds. */
  subscribe(send: (entry: JournalEntry) => void, end: () => void = () => {}): () => void {
    const subscriber = { send, end };
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** Ends every live feed: the server is stopping, and an open stream must not hold it. */
  endFeeds(): void {
    const ending = [...this.subscribers];
    this.subscribers.clear();
    for (const subscriber of ending) subscriber.end();
  }
}

let lastEvent: { entry: JournalEntry; text: string } | undefined;

/** An entry as a server-sent event; serialized once however many feeds send it. */
export function entryEvent(entry: JournalEntry): string {
  if (lastEvent?.entry !== entry) lastEvent = { entry, text: `id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n` };
  return lastEvent.text;
}
