import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

export interface Rewrites {
  /** The headers sent upstream (default: the client's, Host included). */
  request?(req: IncomingMessage): IncomingHttpHeaders;
  /** The headers sent back (default: the upstream's). */
  response?(headers: IncomingHttpHeaders): OutgoingHttpHeaders;
  /** The answer when the upstream cannot be reached. */
  badGateway?: { headers: OutgoingHttpHeaders; body: string };
}

/** A loopback reverse proxy in front of `target` that rewrites headers on the way, as a test needs. */
export async function startRewritingProxy(target: string, rewrites: Rewrites): Promise<RunningProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers = rewrites.request?.(req) ?? req.headers;
    const forward = httpRequest({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, rewrites.response?.(answer.headers) ?? answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502, rewrites.badGateway?.headers ?? {});
      res.end(rewrites.badGateway?.body ?? '');
    });
    req.pipe(forward);
  });
  return listenOnLoopback(server);
}

/** Starts a proxy's server on a free loopback port; closing it drops the connections it keeps. */
export async function listenOnLoopback(server: Server): Promise<RunningProxy> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
