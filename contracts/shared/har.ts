import { readFileSync } from 'node:fs';
import { redactSecrets } from './body-redaction.js';
import { redactUrl } from './url-redaction.js';

/** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): what this suite writes and reads of it. */
export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarHeader[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarHeader[];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string; encoding?: string; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  /** The simulator journal's mark of a response a fault rule made (GET /_sim/journal?format=har). */
  _injected?: string;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; pages?: unknown[]; entries: HarEntry[]; comment?: string };
}

/** Headers whose whole value is a credential: kept as their scheme and last four characters. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-control-token', 'x-api-key', 'api-key']);
const COOKIE_HEADERS = new Set(['cookie', 'set-cookie']);
const URL_HEADERS = new Set(['location', 'content-location', 'link', 'referer']);

/** A header's value with its secrets cut as the simulator's journal cuts them (a key keeps its `svc_live_…abcd` hint). */
export function redactHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(lower)) {
    const [scheme, ...rest] = value.split(' ');
    const secret = rest.length ? rest.join(' ') : (scheme as string);
    const cut = secret.startsWith('svc_live_') ? `svc_live_${tail(secret.slice(9))}` : /^sim_[a-z]{2,5}_/.test(secret) ? secret.replace(/^(sim_[a-z]{2,5}_)(.*)$/, (_, p: string, s: string) => p + tail(s)) : tail(secret);
    return rest.length ? `${scheme} ${cut}` : cut;
  }
  if (COOKIE_HEADERS.has(lower)) return value.replace(/=([^;,\s]{5,})/g, (_, v: string) => `=${tail(v)}`);
  if (URL_HEADERS.has(lower)) return redactUrl(value);
  return redactSecrets(value);
}

function tail(secret: string): string {
  return secret.startsWith('…') ? secret : `…${secret.slice(-4)}`;
}

export function harHeaders(headers: Record<string, string>, skip: ReadonlySet<string> = new Set()): HarHeader[] {
  return Object.entries(headers)
    .filter(([name]) => !skip.has(name.toLowerCase()))
    .map(([name, value]) => ({ name, value: redactHeader(name, value) }));
}

/** Media types kept as text (redacted); any other body is kept as base64, as HAR allows. */
export function isTextual(mimeType: string): boolean {
  return /^(text\/|application\/([a-z.+-]*\+)?(json|xml)|application\/x-www-form-urlencoded|application\/javascript)/i.test(mimeType) || mimeType === '';
}

export function queryOf(url: string): HarHeader[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  return [...new URLSearchParams(url.slice(q + 1))].map(([name, value]) => ({ name, value }));
}

/** A header's value (the first of that name, in any case), or undefined. */
export function header(headers: readonly HarHeader[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

/** Reads a HAR file: HAR 1.2's log and entries, each with a request and a response; anything else is refused with a reason. */
export function readHar(file: string): Har {
  let doc: any;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file} is not a readable JSON file: ${(e as Error).message}`);
  }
  if (!doc?.log || !Array.isArray(doc.log.entries)) throw new Error(`${file} is not a HAR file: no log.entries`);
  doc.log.entries.forEach((e: any, i: number) => {
    const ok = typeof e?.startedDateTime === 'string' && typeof e?.request?.method === 'string' && typeof e?.request?.url === 'string' && Array.isArray(e?.request?.headers) && typeof e?.response?.status === 'number' && Array.isArray(e?.response?.headers);
    if (!ok) throw new Error(`${file}: entry ${i + 1} is not a HAR entry (startedDateTime, request.method, request.url, request.headers, response.status, response.headers)`);
  });
  return doc as Har;
}
