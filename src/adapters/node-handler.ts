import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpEndpoint } from '../mcp/mcp-endpoint.js';
import type { Simulator } from '../simulator.js';
import { serveFetch } from './fetch-bridge.js';
import { toEngineRequest } from './node-request.js';
import { staticPage } from './static-pages.js';
import { writeEventStream, writeSlowBody } from './node-slow-writes.js';
import type { EngineRequest } from '../engine/types.js';
import type { HandledResponse } from '../engine/engine.js';

export interface RequestLogEntry {
  method: string;
  url: string;
  status: number;
  durationMs: number;
  keyHint?: string;
  correlationId: string;
  operationId?: string;
  errorCode?: string;
}

export interface NodeHandlerOptions {
  /** Called once per request after the response is written; keys appear only as hints. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Serve this MCP endpoint at /mcp (see `createMcpEndpoint`). */
  mcp?: McpEndpoint;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The simulator as a plain `node:http` request listener: what the CLI serves, with nothing
 * between the socket and the engine. It only translates; the engine holds the behaviour.
 */
export function createNodeHandler(simulator: Simulator, options: NodeHandlerOptions = {}): NodeHandler {
  const { mcp, onRequest } = options;
  return (req, res) => {
    const started = onRequest ? performance.now() : 0;
    const url = req.url ?? '/';
    // /mcp is not the REST API: no open CORS, its own authentication and transport.
    if (mcp && (url === '/mcp' || url === '/mcp/' || url.startsWith('/mcp?') || url.startsWith('/mcp/?'))) {
      serveFetch(req, res, mcp.fetch)
        .then((status) => onRequest?.({ method: req.method ?? 'GET', url, status, durationMs: performance.now() - started, correlationId: '-' }))
        .catch((error: unknown) => internalError(res, error));
      return;
    }
    const page = staticPage(req.method ?? 'GET', url.split('?')[0] ?? url, req.headers.host);
    if (page) {
      page.headers['content-length'] = String(Buffer.byteLength(page.body));
      res.writeHead(page.status, page.headers);
      res.end(req.method === 'HEAD' ? undefined : page.body);
      return;
    }
    const answer = (request: EngineRequest) => {
      const response = simulator.handle(request);
      // An injected fault the engine cannot perform: a dropped connection, or a late answer.
      if (response.fault?.drop) return void req.socket.destroy();
      if (response.fault?.delayMs) return void setTimeout(() => write(request, response), response.fault.delayMs);
      write(request, response);
    };
    const write = (request: EngineRequest, response: HandledResponse) => {
      if (res.destroyed) return;
      const { headers, body } = response;
      if (response.stream || response.fault?.slowBody) writeSpecial(res, response);
      else {
        // A text body goes to the socket as it is: measuring it is cheaper than copying it into a Buffer first.
        headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
        res.writeHead(response.status, headers);
        res.end(body);
      }
      onRequest?.({
        method: request.method,
        url: request.url,
        status: response.status,
        durationMs: performance.now() - started,
        keyHint: response.log.keyHint,
        correlationId: response.log.correlationId,
        operationId: response.log.operationId,
        errorCode: response.log.errorCode,
      });
    };
    try {
      const request = toEngineRequest(req);
      if (request instanceof Promise) request.then(answer).catch((error: unknown) => internalError(res, error));
      else answer(request);
    } catch (error) {
      internalError(res, error);
    }
  };
}

/** An answer that does not end with its body: server-sent events, or an injected slow body. */
function writeSpecial(res: ServerResponse, response: HandledResponse): void {
  const body = typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
  if (response.stream) return writeEventStream(res, response.status, response.headers, body, response.stream);
  response.headers['content-length'] = String(body.byteLength);
  writeSlowBody(res, response.status, response.headers, body, response.fault!.slowBody!);
}

/** A body that broke off or a bug below the engine: a bare 500 in the spec's shape, no stack. */
function internalError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) return void res.destroy(error instanceof Error ? error : undefined);
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: 'The simulator could not answer this request.', code: 'INTERNAL_ERROR', details: {} }));
}
