import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Simulator } from '../simulator.js';
import { createNodeHandler, type NodeHandlerOptions } from './node-handler.js';

export type { RequestLogEntry } from './node-handler.js';
export type ExpressAdapterOptions = NodeHandlerOptions;

/**
 * What `createExpressApp` returns: an express application, typed only as the request handler
 * it is, so that using it needs no `@types/express` (mount it with `app.use(...)`, or serve
 * it with `http.createServer(...)`).
 */
export type SimulatorApp = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** The part of express this adapter uses. */
interface ExpressApp extends SimulatorApp {
  disable(setting: string): unknown;
  set(setting: string, value: unknown): unknown;
  use(handler: (req: IncomingMessage, res: ServerResponse) => void): unknown;
}

/**
 * An express app that hands every request to the simulator, for users who mount it in their
 * own express app (`app.use('/sim', createExpressApp(simulator))`). It holds no behaviour:
 * the same listener as the CLI's plain node:http server.
 */
export function createExpressApp(simulator: Simulator, options: ExpressAdapterOptions = {}): SimulatorApp {
  const app = loadExpress()();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false); // the engine parses queries itself
  const handle = createNodeHandler(simulator, options);
  app.use((req, res) => handle(req, res));
  return app;
}

/**
 * express is an optional peer dependency, like msw: only this adapter needs it, so it is loaded
 * here, on first use, and its absence is told in words a user can act on.
 */
function loadExpress(): () => ExpressApp {
  try {
    return createRequire(import.meta.url)('express') as () => ExpressApp;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const missing = code === 'MODULE_NOT_FOUND' && /'express'/.test(String((error as Error).message));
    if (!missing) throw error;
    throw new Error(
      'createExpressApp needs express, an optional peer dependency of content-service-simulator that is not installed: run `npm install express`',
      { cause: error },
    );
  }
}
