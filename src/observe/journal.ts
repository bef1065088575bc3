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

export function entryMatches(entry: Pick<JournalEntry, 'accountId' | 'operationId' | 'status' | 'correlationId'>, q: JournalFilter): boolean {
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
 * What an exchange gives the journal: an entry's fields before formatting, with the virtual
 * time in ms (`now`) instead of `at`. The method is upper-cased, and the error code read from
 * the body, when the entry is built; the URL and bodies are cut and redacted as they are kept.
 */
export type JournalFacts = Omit<JournalEntry, 'seq' | 'at' | 'errorCode'> & { now: number; headers?: KeptHeaders };

/**
 * The few headers of an exchange a replay needs (a HAR export): the documented ones, names in
 * lower case, values with their secrets already cut. Not part of a JSON entry.
 */
export interface KeptHeaders {
  request: Record<string, string>;
  response: Record<string, string>;
}

/**
 * A kept exchange. Its secrets are redacted as it is kept (the ring never holds one); the rest
 * of its entry (ISO time, error code, the object itself) is built the first time it is read,
 * once: most exchanges are never read.
 */
interface Slot {
  seq: number;
  now: number;
  /** The (redacted) facts until the entry is built; filters read the fields the two share. */
  facts: JournalFacts;
  entry: JournalEntry | undefined;
  headers: KeptHeaders | undefined;
}

/** What a slot holds once its entry is built: the raw facts let go. */
const RELEASED: JournalFacts = { now: 0, method: '', url: '', operationId: null, accountId: null, keyHint: null, status: 0, durationMs: 0, correlationId: '', injected: null, requestBody: null, responseBody: null };

/** Bodies as the ring keeps them: cut to their first 4 KiB and redacted. */
const keptBody = (body: string | null) => (body === null ? null : redactBody(body));

function entryOf(slot: Slot): JournalEntry {
  if (slot.entry) return slot.entry;
  const f = slot.facts;
  const entry: JournalEntry = {
    seq: slot.seq,
    at: toIso(f.now),
    method: f.method.toUpperCase(),
    url: f.url,
    operationId: f.operationId,
    accountId: f.accountId,
    keyHint: f.keyHint,
    status: f.status,
    errorCode: f.status >= 400 && f.responseBody !== null ? errorCodeOf(f.responseBody) : null,
    durationMs: f.durationMs,
    correlationId: f.correlationId,
    injected: f.injected,
    requestBody: f.requestBody,
    responseBody: f.responseBody,
  };
  slot.entry = entry;
  // The facts are no longer needed: only the entry stays.
  slot.facts = RELEASED;
  return entry;
}

function errorCodeOf(body: string): string | null {
  const match = /"code":"([A-Z_]+)"/.exec(body);
  return match ? (match[1] as string) : null;
}

/**
 * Every request and its response, newest last, in a ring of bounded size: what a client
 * really sent, for the developer who wonders why it got a 400. Secrets never leave it: keys
 * appear as hints, and bodies and URLs are redacted before any entry is read or sent.
 */
export class Journal {
  private readonly ring: Array<Slot | undefined>;
  private next = 0;
  private seq = 0;
  private readonly subscribers = new Set<Subscriber>();

  constructor(
    readonly size = DEFAULT_JOURNAL_SIZE,
    readonly maxFeeds = MAX_JOURNAL_FEEDS,
  ) {
    this.ring = new Array<Slot | undefined>(Math.max(1, size));
  }

  get enabled(): boolean {
    return this.size > 0;
  }

  /** Keeps an exchange; `facts` becomes the journal's (the caller builds it for this call alone). */
  record(facts: JournalFacts): void {
    if (this.size <= 0) return;
    facts.url = redactUrl(facts.url);
    facts.requestBody = keptBody(facts.requestBody);
    facts.responseBody = keptBody(facts.responseBody);
    const slot: Slot = { seq: ++this.seq, now: facts.now, facts, entry: undefined, headers: facts.headers };
    facts.headers = undefined;
    this.ring[this.next] = slot;
    this.next = (this.next + 1) % this.ring.length;
    if (this.subscribers.size === 0) return;
    const kept = entryOf(slot);
    for (const subscriber of this.subscribers) subscriber.send(kept);
  }

  /** Newest first, at most `limit`. */
  query(q: JournalQuery): JournalEntry[] {
    return this.exchanges(q).map((x) => x.entry);
  }

  /** Newest first, at most `limit`, each entry with the headers kept of its exchange (what a HAR export writes). */
  exchanges(q: JournalQuery): Array<{ entry: JournalEntry; headers: KeptHeaders | undefined }> {
    const out: Array<{ entry: JournalEntry; headers: KeptHeaders | undefined }> = [];
    for (let i = 1; i <= this.ring.length && out.length < q.limit; i++) {
      const slot = this.ring[(this.next - i + this.ring.length) % this.ring.length];
      if (!slot) break;
      if (q.since !== undefined && slot.now < q.since) break;
      if (entryMatches(slot.entry ?? slot.facts, q)) out.push({ entry: entryOf(slot), headers: slot.headers });
    }
    return out;
  }

  /** Forgets one account's entries, or all. */
  clear(accountId?: string): void {
    for (let i = 0; i < this.ring.length; i++) {
      const slot = this.ring[i];
      if (accountId === undefined || (slot && (slot.entry ?? slot.facts).accountId === accountId)) this.ring[i] = undefined;
    }
    // Keep the ring contiguous: a query stops at the first hole.
    const kept = this.ring.filter((e): e is Slot => e !== undefined).sort((a, b) => a.seq - b.seq);
    this.ring.fill(undefined);
    kept.forEach((e, i) => (this.ring[i] = e));
    this.next = kept.length % this.ring.length;
  }

  /** Entries kept after `seq`, oldest first: what a live feed that reconnects has missed. */
  after(seq: number, filter: JournalFilter): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= this.ring.length; i++) {
      const slot = this.ring[(this.next - i + this.ring.length) % this.ring.length];
      if (!slot || slot.seq <= seq) break;
      if (entryMatches(slot.entry ?? slot.facts, filter)) out.push(entryOf(slot));
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
