import type { RequestLogEntry } from '../adapters/express.js';
import { redactUrl } from '../observe/url-redaction.js';

export { redactUrl };

/** One line a request: method, redacted URL, status, time, key hint (never the key), correlation id. */
export function formatRequestLine(e: RequestLogEntry): string {
  return `${e.method} ${redactUrl(e.url)} ${e.status} ${e.durationMs.toFixed(1)}ms ${e.keyHint ?? '-'} ${e.correlationId}\n`;
}
