import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Forwarder {
  url: string;
  close(): Promise<void>;
}

/**
 * A loopback reverse proxy in front of `target` that adds `Authorization: Bearer <credential>`
 * to every request, for a tool (the MCP conformance runner) that cannot send a credential.
 * A request addressed to the forwarder goes on with the target's Host; one that names another
 * host (a DNS-rebinding probe) keeps it, so the target sees what the tool sent.
 */
export async function startAuthForwarder(target: string, credential: string): Promise<Forwarder> {
  const upstream = new URL(target);
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  let own = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...req.headers, authorization: `Bearer ${credential}`, host: req.headers.host === own ? upstream.host : req.headers.host };
    const path = `${upstream.pathname.replace(/\/$/, '')}${req.url ?? '/'}`;
    const forward = send({ protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, path, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${own}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
