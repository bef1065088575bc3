import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import express from 'express';
import type { HandledResponse } from '../engine/engine.js';
import type { Simulator } from '../simulator.js';
import type { McpEndpoint } from '../mcp/mcp-endpoint.js';
import { serveFetch } from './fetch-bridge.js';
import { toEngineRequest } from './node-request.js';

export interface RequestLogEntry {
  method: string;
  url: string;
  status: number;
  durationMs: number;
  keyHint?: string;
  correlationId: string;
}

export interface ExpressAdapterOptions {
  /** Called once per request after the response is written; keys appear only as hints. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Serve this MCP endpoint at /mcp (see `createMcpEndpoint`). */
  mcp?: McpEndpoint;
}

/**
 * The app createExpressApp answers, typed without express's own types (a dev dependency
 * here): a request listener for `http.createServer`, a handler for another app's `use`, and
 * `listen`. It is an express app: with @types/express, cast it to `Express` for the rest.
 */
export interface SimulatorApp {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  listen(port?: number, hostname?: string, callback?: () => void): Server;
}

/** An express app that hands every request to the simulator's engine; it holds no behaviour. */
export function createExpressApp(simulator: Simulator, options: ExpressAdapterOptions = {}): SimulatorApp {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false); // the engine parses queries itself
  const { mcp } = options;
  if (mcp) {
    // /mcp is not the REST API: no open CORS, its own authentication and transport.
    app.all(['/mcp', '/mcp/'], (req, res, next) => {
      const started = performance.now();
      serveFetch(req, res, mcp.fetch)
        .then((status) => {
          const entry = { method: req.method, url: req.url, status, durationMs: performance.now() - started, correlationId: '-' };
          options.onRequest?.(entry);
        })
        .catch(next);
    });
  }
  app.use((req, res, next) => {
    const started = options.onRequest ? performance.now() : 0;
    toEngineRequest(req)
      .then((request) => {
        const response: HandledResponse = simulator.handle(request);
        const length = typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.byteLength;
        res.writeHead(response.status, { ...response.headers, 'content-length': String(length) });
        res.end(response.body);
        options.onRequest?.({
          method: request.method,
          url: request.url,
          status: response.status,
          durationMs: performance.now() - started,
          keyHint: response.log.keyHint,
          correlationId: response.log.correlationId,
        });
      })
      .catch(next);
  });
  return app;
}
