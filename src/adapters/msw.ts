import { http, type RequestHandler } from 'msw';
import { createApp, type App, type AppOptions } from '../app/create-app.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../simulator.js';

export interface MswHandlerOptions extends AppOptions {
  /**
   * The base URL your code calls, e.g. `https://api.example.com`: everything under it is the
   * simulator's. Default: any origin, for the simulator's own paths (API, `/_sim`, OAuth, `/mcp`, …).
   */
  baseUrl?: string;
}

/**
 * msw request handlers that answer through the app, for `setupServer(...handlers)` in Node or
 * `setupWorker(...handlers)` in a browser: the whole surface, `/mcp` and OAuth included.
 */
export function createMswHandlers(target: Simulator | App, options: MswHandlerOptions = {}): RequestHandler[] {
  const app = 'byFetch' in target ? target : createApp(target, options);
  const base = options.baseUrl?.replace(/\/+$/, '');
  const prefix = base ? new URL(base).pathname.replace(/\/+$/, '') : '';
  const resolver = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    if (!base && !app.serves(url.pathname)) return undefined; // not ours: msw passes it on
    if (!prefix) return app.fetch(request);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    return app.fetch(new Request(url, request));
  };
  return base ? [http.all(base, resolver), http.all(`${base}/*`, resolver)] : [http.all('*', resolver)];
}

/** A new simulator and its handlers in one call. */
export function simulatorHandlers(options: SimulatorOptions & MswHandlerOptions = {}): { simulator: Simulator; handlers: RequestHandler[] } {
  const simulator = createSimulator(options);
  return { simulator, handlers: createMswHandlers(simulator, options) };
}
