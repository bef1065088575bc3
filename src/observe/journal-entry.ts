/** What the journal shows of an exchange: its entry, and the headers a HAR export writes. */

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

/**
 * The few headers of an exchange a replay needs (a HAR export): the documented ones, names in
 * lower case, values with their secrets already cut. Not part of a JSON entry.
 */
export interface KeptHeaders {
  request: Record<string, string>;
  response: Record<string, string>;
}
