import { request as httpRequest, createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** One request and its response as they passed, with up to `captureLimit` bytes of each body. */
export interface PassedExchange {
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: Uint8Array;
  /** Whole bodies only: a body larger than the capture limit is passed on but not validated. */
  requestBodyComplete: boolean;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Uint8Array;
  responseBodyComplete: boolean;
  /** When the response ended (local clock), and how long the exchange took end to end. */
  endedAt: number;
  durationMs: number;
}

export interface ProxyOptions {
  target: string;
  port?: number;
  host?: string;
  /** Bytes of each body kept for validation (default 8 MiB); the rest streams through unread. */
  captureLimit?: number;
  /** Called as a request arrives, before it is passed on. */
  onRequest?: (headers: Record<string, string>) => void;
  onExchange: (exchange: PassedExchange) => void;
  /** Called when the target cannot be reached: the client gets a 502 from the proxy itself. */
  onUpstreamError?: (headers: Record<string, string>, error: Error) => void;
}

/** Headers that belong to one connection, not to the message (RFC 9110, 7.6.1): never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);

/**
 * A loopback HTTP proxy that passes every request to the target and every response back as
 * they are (status, headers, bytes), streaming both bodies as they arrive, while keeping a copy
 * of each (up to the capture limit) to validate once the exchange has ended. Only the Host
 * header (the target's) and the hop-by-hop headers change, as with any HTTP proxy.
 */
export async function startProxy(options: ProxyOptions): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const target = new URL(options.target);
  const limit = options.captureLimit ?? 8 * 1024 * 1024;
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const basePath = target.pathname.replace(/\/$/, '');

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = Date.now();
    const url = req.url ?? '/';
    const requestCapture = new Capture(limit);
    options.onRequest?.(flat(req.headers));
    const headers = forwardable(req.headers);
    headers.host = target.host;
    const upstream = send(
      { protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: `${basePath}${url}`, headers },
      (answer) => {
        const responseCapture = new Capture(limit);
        const responseHeaders = forwardable(answer.headers);
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders as Record<string, string | string[]>);
        answer.on('data', (chunk: Buffer) => {
          responseCapture.add(chunk);
          if (!res.write(chunk)) {
            answer.pause(); // a slow client slows the target, instead of the body piling up here
            res.once('drain', () => answer.resume());
          }
        });
        answer.on('end', () => {
          res.end();
          options.onExchange({
            method: req.method ?? 'GET',
            url,
            requestHeaders: flat(req.headers),
            requestBody: requestCapture.bytes(),
            requestBodyComplete: requestCapture.complete,
            status: answer.statusCode ?? 0,
            responseHeaders: flat(answer.headers),
            responseBody: decoded(responseCapture.bytes(), answer.headers['content-encoding']),
            responseBodyComplete: responseCapture.complete,
            endedAt: Date.now(),
            durationMs: Date.now() - started,
          });
        });
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error) => {
      options.onUpstreamError?.(flat(req.headers), error);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: the target ${target.origin} cannot be reached: ${error.message}\n`);
    });
    req.on('data', (chunk: Buffer) => {
      requestCapture.add(chunk);
      if (!upstream.write(chunk)) {
        req.pause();
        upstream.once('drain', () => req.resume());
      }
    });
    req.on('end', () => upstream.end());
    req.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The first `limit` bytes of a stream, and whether that was all of it. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  complete = true;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    if (!this.complete) return;
    if (this.size + chunk.length > this.limit) {
      this.complete = false;
      this.chunks.length = 0;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const named = new Set(String(headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim()));
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value;
  return out;
}

function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** The body as the application sees it: a compressed copy is inflated for validation (what passed is untouched). */
function decoded(bytes: Uint8Array, encoding: string | undefined): Uint8Array {
  try {
    if (encoding === 'gzip') return gunzipSync(bytes);
    if (encoding === 'deflate') return inflateSync(bytes);
    if (encoding === 'br') return brotliDecompressSync(bytes);
  } catch {
    // A body that does not inflate is validated as it came.
  }
  return bytes;
}
