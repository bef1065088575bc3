import { toIso } from '../clock/clock.js';
import type { ExchangeFacts } from '../engine/engine-hooks.js';
import type { EngineRequest, EngineResponse } from '../engine/types.js';
import { redactBody } from './body-redaction.js';
import { keptHeaders } from './kept-headers.js';
import { keptRequestBody, keptResponseBody, requestBodyText, Slot } from './journal-slot.js';
import { redactUrl } from './url-redaction.js';
import type { JournalEntry, KeptHeaders } from './journal-entry.js';

export type { JournalEntry, KeptHeaders } from './journal-entry.js';


/** Requests kept by default: enough for a test suite's run, small enough to keep in memory. */
export const DEFAULT_JOURNAL_SIZE = 1000;
/**
 * Live feeds open at once. Each costs a little memory and a write per entry; the adapter cuts
 * off a feed whose client reads too slowly, and this caps how many there can be.
 */
export const MAX_JOURNAL_FEEDS = 64;

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

function entryOf(slot: Slot): JournalEntry {
  if (slot.entry) return slot.entry;
  const responseBody = slot.responseBody === null ? null : redactBody(slot.responseBody);
  const entry: JournalEntry = {
    seq: slot.seq,
    at: toIso(slot.now),
    method: slot.method.toUpperCase(),
    url: redactUrl(slot.url),
    operationId: slot.operationId,
    accountId: slot.accountId,
    keyHint: slot.keyHint,
    status: slot.status,
    errorCode: slot.status >= 400 && responseBody !== null ? errorCodeOf(responseBody) : null,
    durationMs: Math.round(slot.durationMs * 1000) / 1000,
    correlationId: slot.correlationId,
    injected: slot.injected,
    requestBody: slot.requestBody === undefined ? null : requestBodyText(slot.requestBody, redactBody),
    responseBody,
  };
  slot.entry = entry;
  slot.kept = keptHeaders(slot.requestHeaders, slot.responseHeaders);
  slot.release();
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

  /**
   * Keeps an exchange: its facts are copied into the next slot of the ring by reference (no
   * entry, no redaction, no header copy), unless a live feed listens, which needs the entry now.
   */
  record(request: EngineRequest, response: EngineResponse, facts: ExchangeFacts, durationMs: number): void {
    if (this.size <= 0) return;
    let slot = this.ring[this.next];
    if (slot === undefined) slot = this.ring[this.next] = new Slot();
    slot.seq = ++this.seq;
    slot.now = facts.now;
    slot.method = request.method;
    slot.url = request.url;
    slot.operationId = facts.operationId ?? null;
    slot.accountId = facts.accountId ?? null;
    slot.keyHint = facts.keyHint ?? null;
    slot.status = response.status;
    slot.durationMs = durationMs;
    slot.correlationId = facts.correlationId;
    slot.injected = facts.fault?.ruleId ?? null;
    slot.requestHeaders = request.headers;
    slot.requestBody = keptRequestBody(request.body, redactBody);
    slot.responseHeaders = response.headers;
    // Only a JSON answer's text is kept (files, images and pages are not needed to debug a client).
    const json = typeof response.body === 'string' && (response.headers['content-type'] ?? '').startsWith('application/json');
    slot.responseBody = json ? keptResponseBody(response.body as string, redactBody) : null;
    slot.entry = undefined;
    slot.kept = undefined;
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
    for (const slot of this.newestFirst()) {
      if (out.length >= q.limit || (q.since !== undefined && slot.now < q.since)) break;
      if (entryMatches(slot, q)) out.push({ entry: entryOf(slot), headers: slot.kept });
    }
    return out;
  }

  /** Forgets one account's entries, or all; a forgotten slot's raw facts go with it. */
  clear(accountId?: string): void {
    const kept: Slot[] = [];
    for (const slot of this.ring) {
      if (slot === undefined || slot.seq === 0) continue;
      if (accountId === undefined || slot.accountId === accountId) {
        slot.release();
        slot.seq = 0;
        slot.entry = undefined;
        slot.kept = undefined;
      } else kept.push(slot);
    }
    // Keep the ring contiguous, oldest first: a read stops at the first empty slot.
    kept.sort((a, b) => a.seq - b.seq);
    const free = this.ring.filter((slot): slot is Slot => slot !== undefined && slot.seq === 0);
    this.ring.fill(undefined);
    kept.forEach((slot, i) => (this.ring[i] = slot));
    // Emptied slots stay allocated after the kept ones, to be reused.
    free.forEach((slot, i) => (this.ring[kept.length + i] = slot));
    this.next = kept.length % this.ring.length;
  }

  /** Entries kept after `seq`, oldest first: what a live feed that reconnects has missed. */
  after(seq: number, filter: JournalFilter): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (const slot of this.newestFirst()) {
      if (slot.seq <= seq) break;
      if (entryMatches(slot, filter)) out.push(entryOf(slot));
    }
    return out.reverse();
  }

  /** The kept slots, newest first. */
  private *newestFirst(): Generator<Slot> {
    for (let i = 1; i <= this.ring.length; i++) {
      const slot = this.ring[(this.next - i + this.ring.length) % this.ring.length];
      if (slot === undefined || slot.seq === 0) return;
      yield slot;
    }
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
