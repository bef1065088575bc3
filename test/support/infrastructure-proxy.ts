import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { startRewritingProxy, type RunningProxy } from './rewriting-proxy.js';

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

export function startInfrastructureProxy(target: string): Promise<RunningProxy> {
  return startRewritingProxy(target, {
    request: (req) => ({ ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1', 'x-forwarded-proto': 'http' }),
    response: withInfrastructure,
    badGateway: { headers: { 'content-type': 'text/html', ...INFRASTRUCTURE_HEADERS }, body: '<html><body>502 Bad Gateway</body></html>' },
  });
}

function withInfrastructure(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
  const cookies = [...(headers['set-cookie'] ?? []), INFRASTRUCTURE_HEADERS['set-cookie']];
  return { ...headers, ...INFRASTRUCTURE_HEADERS, vary, 'set-cookie': cookies, 'x-request-id': randomUUID() };
}
