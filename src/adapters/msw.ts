import { delay, http, HttpResponse, type RequestHandler } from 'msw';
import { createSimulator, type Simulator, type SimulatorOptions } from '../simulator.js';
import type { EngineRequest } from '../engine/types.js';

export interface MswHandlerOptions {
  /** The base URL your code calls, e.g. `https://api.example.com`. Default: any origin. */
  baseUrl?: string;
}

/**
 * msw request handlers that answer through the simulator's engine, for
 * `setupServer(...handlers)` in Node or `setupWorker(...handlers)` in a browser.
 */
export function createMswHandlers(simulator: Simulator, options: MswHandlerOptions = {}): RequestHandler[] {
  const base = (options.baseUrl ?? '*').replace(/\/+$/, '');
  const prefix = options.baseUrl ? new URL(options.baseUrl).pathname.replace(/\/+$/, '') : '';
  const resolver = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const engineRequest: EngineRequest = {
      method: request.method,
      url: url.pathname.slice(prefix.length) + url.search,
      headers: Object.fromEntries(request.headers),
    };
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    if (body && body.byteLength > 0) engineRequest.body = body;
    const response = simulator.handle(engineRequest);
    // Injected faults the engine leaves to its adapter: a network error, or a late answer.
    if (response.fault?.drop) return HttpResponse.error();
    if (response.fault?.delayMs) await delay(response.fault.delayMs);
    const payload = typeof response.body === 'string' || response.body.byteLength === 0 ? response.body || null : response.body.slice().buffer;
    return new HttpResponse(payload, { status: response.status, headers: response.headers });
  };
  return [http.all(`${base}/api/v1/*`, resolver), http.all(`${base}/_sim`, resolver), http.all(`${base}/_sim/*`, resolver)];
}

/** A new simulator and its handlers in one call. */
export function simulatorHandlers(options: SimulatorOptions & MswHandlerOptions = {}): { simulator: Simulator; handlers: RequestHandler[] } {
  const simulator = createSimulator(options);
  return { simulator, handlers: createMswHandlers(simulator, options) };
}
