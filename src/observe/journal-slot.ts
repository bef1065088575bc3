import type { JournalEntry, KeptHeaders } from './journal-entry.js';

/** A request body longer than this is cut when it is kept (the entry shows 8 KiB of it at most, redacted to 4 KiB of text). */
const REQUEST_BODY_KEPT = 8192;
/** A response body longer than this is cut (and so redacted) when it is kept: the ring never holds more of one. */
const RESPONSE_BODY_KEPT = 4096;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * One place of the journal's ring, reused when the ring comes round: the exchange's facts as
 * references (headers and bodies as they came, nothing copied), of one fixed shape so that
 * keeping an exchange allocates nothing. The first read builds its redacted entry and kept
 * headers and lets the references go, so a secret the raw facts hold lives no longer than
 * the slot keeps them, and never leaves it unredacted.
 */
export class Slot {
  seq = 0;
  now = 0;
  method = '';
  url = '';
  operationId: string | null = null;
  accountId: string | null = null;
  keyHint: string | null = null;
  status = 0;
  durationMs = 0;
  correlationId = '';
  injected: string | null = null;
  requestHeaders: Readonly<Record<string, string | undefined>> = NO_HEADERS;
  requestBody: Uint8Array | undefined = undefined;
  responseHeaders: Readonly<Record<string, string>> = NO_HEADERS;
  responseBody: string | null = null;
  /** Built on the first read, then kept. */
  entry: JournalEntry | undefined = undefined;
  kept: KeptHeaders | undefined = undefined;

  /** Lets the raw references go, once the entry is built (or the slot cleared). */
  release(): void {
    this.url = '';
    this.requestHeaders = NO_HEADERS;
    this.requestBody = undefined;
    this.responseHeaders = NO_HEADERS;
    this.responseBody = null;
  }
}

/** A request body as a slot keeps it: by reference, unless it is long (then its first 8 KiB, copied, so the upload is not held). */
export function keptRequestBody(body: Uint8Array | undefined): Uint8Array | undefined {
  if (body === undefined || body.byteLength === 0) return undefined;
  return body.byteLength > REQUEST_BODY_KEPT ? body.slice(0, REQUEST_BODY_KEPT) : body;
}

/** A response body as a slot keeps it: by reference, unless it is long (a deliverable): then cut and redacted at once. */
export function keptResponseBody(body: string, redact: (body: string) => string): string {
  return body.length > RESPONSE_BODY_KEPT ? redact(body) : body;
}
