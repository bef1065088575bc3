import type { JournalEntry, KeptHeaders } from './journal.js';

/** The media type of a HAR document (the `.har` files browsers and proxies exchange). */
export const HAR_MEDIA_TYPE = 'application/har+json';

/** How the journal marks a body it cut at 4 KiB (body-redaction.ts). */
const CUT = /…\((\d+) more characters\)$/;

interface HarHeader {
  name: string;
  value: string;
}

/**
 * Journal entries as HAR 1.2, oldest first: what `content-contracts drift --har` replays, and what
 * any HAR viewer opens. Times are the virtual clock's (the account's own, if it has one); the
 * request's credential is its key hint, the headers those the journal keeps, and the bodies as
 * the journal keeps them (secrets cut, at most 4 KiB: a cut body says so in its comment).
 * Responses a fault rule made carry `_injected`, so a replay can leave them out.
 */
export function journalHar(exchanges: ReadonlyArray<{ entry: JournalEntry; headers: KeptHeaders | undefined }>, origin: string, version: string) {
  return {
    log: {
      version: '1.2',
      creator: { name: 'content-sim journal', version },
      pages: [],
      entries: [...exchanges].reverse().map(({ entry, headers }) => harEntry(entry, headers, origin)),
    },
  };
}

function harEntry(entry: JournalEntry, kept: KeptHeaders | undefined, origin: string) {
  const requestHeaders = list(kept?.request);
  if (!kept?.request.authorization && entry.keyHint) requestHeaders.unshift({ name: 'authorization', value: `Bearer ${entry.keyHint}` });
  const url = `${origin.replace(/\/$/, '')}${entry.url}`;
  const responseType = kept?.response['content-type'] ?? (entry.responseBody === null ? '' : 'application/json');
  const requestType = kept?.request['content-type'] ?? 'application/json';
  const cut = entry.responseBody === null ? null : CUT.exec(entry.responseBody);
  return {
    startedDateTime: entry.at,
    time: entry.durationMs,
    request: {
      method: entry.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: requestHeaders,
      queryString: queryOf(entry.url),
      ...(entry.requestBody === null ? {} : { postData: { mimeType: requestType, text: entry.requestBody } }),
      headersSize: -1,
      bodySize: entry.requestBody === null ? 0 : entry.requestBody.length,
    },
    response: {
      status: entry.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: list(kept?.response),
      content: {
        size: entry.responseBody === null ? 0 : entry.responseBody.length + (cut ? Number(cut[1]) : 0),
        mimeType: responseType,
        ...(entry.responseBody === null ? {} : { text: entry.responseBody }),
        ...(cut ? { comment: 'cut at 4096 characters by the journal' } : entry.responseBody === null && entry.status !== 204 ? { comment: 'not kept by the journal (not JSON)' } : {}),
      },
      redirectURL: kept?.response.location ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    comment: `${entry.operationId ?? 'no operation'}; correlation id ${entry.correlationId}`,
    ...(entry.injected === null ? {} : { _injected: entry.injected }),
  };
}

function list(headers: Record<string, string> | undefined): HarHeader[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): HarHeader[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const out: HarHeader[] = [];
  for (const pair of url.slice(q + 1).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    out.push({ name: safeDecode(eq < 0 ? pair : pair.slice(0, eq)), value: eq < 0 ? '' : safeDecode(pair.slice(eq + 1)) });
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
