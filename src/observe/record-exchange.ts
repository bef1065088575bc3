import type { ExchangeFacts } from '../engine/engine-hooks.js';
import type { EngineRequest, EngineResponse } from '../engine/types.js';
import type { Journal } from './journal.js';

/**
 * Where every finished exchange ends, with all its facts at hand (request, response, caller,
 * operation, time): the one place to observe them. It hands the journal references only;
 * nothing is copied, redacted or formatted on the request path.
 *
 * The journal's own reads, reads of the control API (the dashboard polls them every second)
 * and health probes stay out of it: they would drown what matters. Control writes (a fault
 * added, the clock moved) stay in.
 */
export function recordExchange(journal: Journal, request: EngineRequest, response: EngineResponse, exchange: ExchangeFacts, durationMs: number): void {
  if (!journal.enabled) return;
  const url = request.url;
  if (url.startsWith('/_sim/journal') || url.startsWith('/healthz') || url.startsWith('/readyz')) return;
  if (url.startsWith('/_sim') && (request.method === 'GET' || request.method === 'get')) return;
  journal.record(request, response, exchange, durationMs);
}
