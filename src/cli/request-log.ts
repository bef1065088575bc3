import type { RequestLogEntry } from '../adapters/express.js';

/** Secrets that can travel in a URL: share tokens. Logs keep only their last four characters. */
const SECRET_IN_PATH = /(\/api\/v1\/shared\/)([^/?#]+)/;

export function redactUrl(url: string): string {
  return url.replace(SECRET_IN_PATH, (_, prefix: string, token: string) => `${prefix}…${token.slice(-4)}`);
}

/** One line a request: method, redacted URL, status, time, key hint (never the key), correlation id. */
export function formatRequestLine(e: RequestLogEntry): string {
  return `${e.method} ${redactUrl(e.url)} ${e.status} ${e.durationMs.toFixed(1)}ms ${e.keyHint ?? '-'} ${e.correlationId}\n`;
}
