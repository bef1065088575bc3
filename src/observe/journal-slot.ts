import type { JournalEntry, KeptHeaders } from './journal-entry.js';

/** A body longer than this is cut (and so redacted) when it is kept: the ring never holds more of one. */
const LONG_BODY = 4096;
/** Of a long request body, the bytes read to make its text (the entry shows 4 KiB of it, and how much more there was of these). */
const REQUEST_BODY_READ = 8192;

const decoder = new TextDecoder();

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
  /** The bytes as they came, or (a long body) its redacted text. */
  requestBody: Uint8Array | string | undefined = undefined;
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

/**
 * A request body as a slot keeps it: by reference when the bytes are short and all their buffer
 * holds; copied when they are a view of a larger buffer (pooled memory the ring would pin); and a
 * long body (an upload) cut and redacted at once, as the entry will show it, so the ring holds
 * at most 4 KiB of text of it.
 */
export function keptRequestBody(body: Uint8Array | undefined, redact: (body: string) => string): Uint8Array | string | undefined {
  if (body === undefined || body.byteLength === 0) return undefined;
  if (body.byteLength > LONG_BODY) return redact(decoder.decode(body.subarray(0, REQUEST_BODY_READ)));
  const ownBuffer = body.byteOffset === 0 && body.buffer.byteLength === body.byteLength;
  // A Buffer's `slice` is a view: the copy is made by the constructor.
  return ownBuffer ? body : new Uint8Array(body);
}

/** A kept request body as the entry shows it: redacted text. */
export function requestBodyText(body: Uint8Array | string, redact: (body: string) => string): string {
  return typeof body === 'string' ? body : redact(decoder.decode(body));
}

/** A response body as a slot keeps it: by reference, unless it is long (a deliverable): then cut and redacted at once. */
export function keptResponseBody(body: string, redact: (body: string) => string): string {
  return body.length > LONG_BODY ? redact(body) : body;
}
