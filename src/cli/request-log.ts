import type { RequestLogEntry } from '../adapters/node-handler.js';
import { redactUrl } from '../observe/url-redaction.js';

export { redactUrl };

export type LogFormat = 'text' | 'json';

/** One line a request: time, method, redacted URL, status, duration, key hint (never the key), correlation id, operation, error code. */
export function formatRequestLine(e: RequestLogEntry, at = new Date()): string {
  const outcome = e.errorCode ? `${e.status} ${e.errorCode}` : String(e.status);
  return `${at.toISOString()} ${e.method} ${redactUrl(e.url)} ${outcome} ${e.durationMs.toFixed(1)}ms ${e.keyHint ?? '-'} ${e.correlationId} ${e.operationId ?? '-'}\n`;
}

/**
 * Where request lines go. `json` writes one JSON object a line with pino: the format log
 * shippers (Loki, Datadog, ELK, CloudWatch) read as is, with ISO times, written off the
 * request path by its asynchronous destination. Pino is loaded only then: a text log (the
 * default) does not pay for it at start.
 */
export async function requestLogger(format: LogFormat, write: (line: string) => void = (line) => process.stdout.write(line)): Promise<(entry: RequestLogEntry) => void> {
  if (format === 'text') return (entry) => write(formatRequestLine(entry));
  const { default: pino } = await import('pino');
  const logger = pino({ base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 1, sync: false }));
  return (e) =>
    logger.info(
      {
        method: e.method,
        url: redactUrl(e.url),
        status: e.status,
        durationMs: Math.round(e.durationMs * 1000) / 1000,
        keyHint: e.keyHint ?? null,
        correlationId: e.correlationId,
        operationId: e.operationId ?? null,
        errorCode: e.errorCode ?? null,
      },
      'request',
    );
}

/**
 * The log without the dashboard's own reads: an open dashboard polls several times a second,
 * which would bury the requests a person is watching for. Its actions (reset, faults, the
 * clock) stay in; `--log-dashboard` keeps its reads too.
 */
export function withoutDashboardReads(log: (entry: RequestLogEntry) => void): (entry: RequestLogEntry) => void {
  return (entry) => {
    if (entry.client === 'dashboard' && (entry.method === 'GET' || entry.method === 'HEAD')) return;
    log(entry);
  };
}
