import express, { type Express } from 'express';
import type { Simulator } from '../simulator.js';
import { createNodeHandler, type NodeHandlerOptions } from './node-handler.js';

export type { RequestLogEntry } from './node-handler.js';
export type ExpressAdapterOptions = NodeHandlerOptions;

/**
 * An express app that hands every request to the simulator, for users who mount it in their
 * own express app (`app.use('/sim', createExpressApp(simulator))`). It holds no behaviour:
 * the same listener as the CLI's plain node:http server.
 */
export function createExpressApp(simulator: Simulator, options: ExpressAdapterOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false); // the engine parses queries itself
  const handle = createNodeHandler(simulator, options);
  app.use((req, res) => handle(req, res));
  return app;
}
