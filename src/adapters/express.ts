import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
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

/**
 * An express app that hands every request to the simulator, for users who mount it in their
 * own express app (`app.use('/sim', createExpressApp(simulator))`). It holds no behaviour:
 * the same listener as the CLI's plain node:http server.
 */
export function createExpressApp(simulator: Simulator, options: ExpressAdapterOptions = {}): SimulatorApp {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false); // the engine parses queries itself
  const handle = createNodeHandler(simulator, options);
  app.use((req, res) => handle(req, res));
  return app as SimulatorApp;
}
