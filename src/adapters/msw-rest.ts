import { http, type RequestHandler } from 'msw';
import { performFault } from '../app/fault-effects.js';
import { fromFetchRequest, toFetchResponse } from '../app/fetch-io.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../simulator.js';

export { shippedScenarios } from '../scenarios/shipped.js';
export type { LoadedScenario, LoadedAccount, Scenario } from '../scenarios/types.js';

/**
 * The service API and `/_sim` alone, for a page's tests: no MCP, no OAuth sign-in, no docs or
 * dashboard, so the browser bundle (`content-service-simulator/msw/rest`) carries only what
 * they need. Its `/_sim/restore` and whole-simulator `/_sim/reset` refuse (their snapshot
 * checks are not in it): give each test a fresh account, or reset accounts one by one.
 */
const REST_PATHS = /^\/(?:api\/|_sim(?:\/|$)|healthz$|readyz$)/;

export interface RestHandlerOptions {
  /** The base URL your code calls (e.g. `https://api.example.com`); default: the API's paths on any origin. */
  baseUrl?: string;
}

/** A Fetch handler for the REST API and `/_sim`: undefined for any other path (not ours). */
export function createRestFetch(simulator: Simulator): (request: Request) => Promise<Response | undefined> {
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (!REST_PATHS.test(pathname)) return undefined;
    return toFetchResponse(await performFault(simulator.handle(await fromFetchRequest(request))));
  };
}

/** msw handlers (`setupWorker(...handlers)` in a page, `setupServer` in Node) for the REST API and `/_sim`. */
export function createRestHandlers(simulator: Simulator, options: RestHandlerOptions = {}): RequestHandler[] {
  const answer = createRestFetch(simulator);
  const base = options.baseUrl?.replace(/\/+$/, '');
  const prefix = base ? new URL(base).pathname.replace(/\/+$/, '') : '';
  const resolver = ({ request }: { request: Request }) => {
    if (!prefix) return answer(request);
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    return answer(new Request(url, request));
  };
  return base ? [http.all(`${base}/*`, resolver)] : [http.all('*', resolver)];
}

/** A new simulator (scenarios loaded, if given) and its REST handlers in one call. */
export function restSimulatorHandlers(options: SimulatorOptions & RestHandlerOptions = {}): { simulator: Simulator; handlers: RequestHandler[] } {
  const simulator = createSimulator(options);
  return { simulator, handlers: createRestHandlers(simulator, options) };
}
