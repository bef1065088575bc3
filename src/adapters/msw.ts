import { delay, http, HttpResponse, type RequestHandler } from 'msw';
import { createSimulator, type Simulator, type SimulatorOptions } from '../simulator.js';
import type { EngineRequest } from '../engine/types.js';
import type { HandledResponse } from '../engine/engine.js';

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
    if (response.stream || response.fault?.slowBody) return new HttpResponse(bodyStream(response), { status: response.status, headers: response.headers });
    const payload = typeof response.body === 'string' || response.body.byteLength === 0 ? response.body || null : response.body.slice().buffer;
    return new HttpResponse(payload, { status: response.status, headers: response.headers });
  };
  return [http.all(`${base}/api/v1/*`, resolver), http.all(`${base}/_sim`, resolver), http.all(`${base}/_sim/*`, resolver)];
}

/** A body that goes on (the journal's live feed) or comes slowly (an injected slow body), as a web stream. */
function bodyStream(response: HandledResponse): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const body = typeof response.body === 'string' ? encoder.encode(response.body) : response.body;
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      if (response.stream) {
        controller.enqueue(body);
        stop = response.stream.open((chunk) => controller.enqueue(encoder.encode(chunk)), () => controller.close());
        return;
      }
      const { totalMs, chunks } = response.fault!.slowBody!;
      const pieces = Math.max(1, Math.min(chunks, body.byteLength));
      const size = Math.ceil(body.byteLength / pieces);
      for (let i = 0; i < pieces; i++) {
        await delay(Math.round(totalMs / pieces));
        controller.enqueue(body.slice(i * size, (i + 1) * size));
      }
      controller.close();
    },
    cancel: () => stop(),
  });
}

/** A new simulator and its handlers in one call. */
export function simulatorHandlers(options: SimulatorOptions & MswHandlerOptions = {}): { simulator: Simulator; handlers: RequestHandler[] } {
  const simulator = createSimulator(options);
  return { simulator, handlers: createMswHandlers(simulator, options) };
}
