import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApp, type App, type AppOptions } from '../app/create-app.js';
import type { AppResponse } from '../app/fault-effects.js';
import { fileSystemAssets } from '../app/file-assets.js';
import type { Simulator } from '../simulator.js';
import { serveMcp } from './node-mcp.js';
import { toEngineRequest } from './node-request.js';
import { writeFeed } from './node-feed.js';
import type { DocumentFetcher } from '../oauth/client-metadata.js';

/**
 * Client ID metadata documents as node:http fetches them: public addresses only (loopback too
 * when asked, over http). The fetcher (node:https, TLS, DNS) is loaded with the first document.
 */
export function nodeClientMetadata(onLoopback = false): { fetch: DocumentFetcher; allowLoopbackHttp: boolean } {
  let fetcher: Promise<DocumentFetcher> | undefined;
  const fetch: DocumentFetcher = async (url) => {
    fetcher ??= import('./client-metadata-fetch.js').then(({ clientMetadataFetcher }) => clientMetadataFetcher({ allowLoopback: onLoopback }));
    return (await fetcher)(url);
  };
  return { fetch, allowLoopbackHttp: onLoopback };
}

export interface RequestLogEntry {
  method: string;
  url: string;
  status: number;
  durationMs: number;
  keyHint?: string;
  correlationId: string;
  operationId?: string;
  errorCode?: string;
  /** The `X-Sim-Client` the caller named itself by (the dashboard says `dashboard`). */
  client?: string;
}

export interface NodeHandlerOptions extends AppOptions {
  /** Accept client metadata documents over http on loopback hosts (local testing; off by default). */
  metadataDocumentsOnLoopback?: boolean;
  /** Called once per request when its answer is written; keys appear only as hints. */
  onRequest?: (entry: RequestLogEntry) => void;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The app as a plain `node:http` request listener (what the CLI serves): it only translates
 * between the socket and the app, which holds the routing and performs injected faults.
 * Given a simulator, the app is built around it with the package's own files as assets.
 */
export function createNodeHandler(target: Simulator | App, options: NodeHandlerOptions = {}): NodeHandler {
  const app = 'byFetch' in target ? target : createApp(target, { assets: fileSystemAssets(), clientMetadata: nodeClientMetadata(options.metadataDocumentsOnLoopback), ...options });
  const { onRequest } = options;
  // No closure is made a request on the plain path: the answer is written by a function made once.
  return (req, res) => {
    const started = onRequest ? performance.now() : 0;
    const url = req.url ?? '/';
    if (app.byFetch(url)) {
      serveMcp(req, res, app)
        .then((status) => onRequest && logRequest(onRequest, req, url, started, status))
        .catch((error: unknown) => internalError(res, error));
      return;
    }
    try {
      const request = toEngineRequest(req);
      const answer = request instanceof Promise ? request.then(app.handle) : app.handle(request);
      if (answer instanceof Promise) answer.then((later) => writeAnswer(req, res, later, onRequest, started)).catch((error: unknown) => internalError(res, error));
      else writeAnswer(req, res, answer, onRequest, started);
    } catch (error) {
      internalError(res, error);
    }
  };
}

function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: AppResponse, onRequest: NodeHandlerOptions['onRequest'], started: number): void {
  if (answer.drop) return void req.socket.destroy();
  if (res.destroyed) return;
  if (answer.feed) writeFeed(res, answer);
  else {
    // Bytes made already are sent as they are, while the body is still the text they were made
    // of (a fault or a wrapper that answers another body drops them that way, whether it knows of
    // them or not: the same string is one pointer compare); else a text body goes to the socket as
    // it is (measuring it is cheaper than copying it into a Buffer first).
    const body = answer.bodyBytes !== undefined && answer.bodyBytesOf === answer.body ? answer.bodyBytes : answer.body;
    answer.headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
  if (onRequest) logRequest(onRequest, req, req.url ?? '/', started, answer.status, answer);
}

function logRequest(onRequest: NonNullable<NodeHandlerOptions['onRequest']>, req: IncomingMessage, url: string, started: number, status: number, answer?: AppResponse): void {
  const client = req.headers['x-sim-client'];
  onRequest({ method: req.method ?? 'GET', url, status, durationMs: performance.now() - started, correlationId: '-', ...answer?.log, ...(typeof client === 'string' ? { client } : {}) });
}

/** A body that broke off or a bug below the engine: a bare 500 in the spec's shape, no stack. */
function internalError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) return void res.destroy(error instanceof Error ? error : undefined);
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: 'The simulator could not answer this request.', code: 'INTERNAL_ERROR', details: {} }));
}
