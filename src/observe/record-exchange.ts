import type { ExchangeFacts } from '../engine/engine-hooks.js';
import type { EngineRequest, EngineResponse } from '../engine/types.js';
import type { Journal } from './journal.js';
import { keptHeaders } from './kept-headers.js';

const decoder = new TextDecoder();

/**
 * One handled request into the journal. The journal's own reads, reads of the control API
 * (the dashboard polls them every second) and health probes stay out: they would drown what
 * matters. Control writes (a fault added, the clock moved) stay in.
 */
export function recordExchange(journal: Journal, request: EngineRequest, response: EngineResponse, exchange: ExchangeFacts, durationMs: number): void {
  if (!journal.enabled) return;
  const url = request.url;
  if (url.startsWith('/_sim/journal') || url.startsWith('/healthz') || url.startsWith('/readyz')) return;
  if (url.startsWith('/_sim') && (request.method === 'GET' || request.method === 'get')) return;
  const json = (response.headers['content-type'] ?? '').startsWith('application/json');
  // Everything is kept as it came: the journal redacts and formats an entry only when it is read.
  journal.record({
    now: exchange.now,
    method: request.method,
    url,
    operationId: exchange.operationId ?? null,
    accountId: exchange.accountId ?? null,
    keyHint: exchange.keyHint ?? null,
    status: response.status,
    durationMs: Math.round(durationMs * 1000) / 1000,
    correlationId: exchange.correlationId,
    injected: exchange.fault?.ruleId ?? null,
    requestBody: request.body && request.body.byteLength > 0 ? decoder.decode(request.body.subarray(0, 8192)) : null,
    responseBody: typeof response.body === 'string' && json ? response.body : null,
    headers: keptHeaders(request.headers, response.headers),
  });
}
