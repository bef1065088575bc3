import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback reverse proxy that does to responses what real deployments do: it replaces
 * `Server`, and adds `Via`, `X-Request-Id`, HSTS, `Vary: Accept-Encoding` and a balancer's
 * sticky cookie, as nginx, a load balancer or a CDN would. None of these is in the contract,
 * so a suite that judges only what the contract documents must not mind them.
 */
export const INFRASTRUCTURE_HEADERS = {
  server: 'nginx/1.22.1',
  via: '1.1 edge-proxy',
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'set-cookie': 'SERVERID=app-1; Path=/; HttpOnly',
} as const;

export async function startInfrastructureProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1', 'x-forwarded-proto': 'http' };
    const forward = httpRequest({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, withInfrastructure(answer.headers));
      answer.pipe(res);
    });
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/html', ...INFRASTRUCTURE_HEADERS });
      res.end('<html><body>502 Bad Gateway</body></html>');
    });
    req.pipe(forward);
  });
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

function withInfrastructure(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  const cookies = [...(headers['set-cookie'] ?? []), INFRASTRUCTURE_HEADERS['set-cookie']];
  return { ...headers, ...INFRASTRUCTURE_HEADERS, vary, 'set-cookie': cookies, 'x-request-id': randomUUID() };
}
