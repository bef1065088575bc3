import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contract } from '../support/contract.js';

/**
 * A loopback proxy between the documents' blocks and the simulator that holds every answer of
 * the service API, the control API and the health probes to openapi.yaml and
 * simulator-control.yaml, as every other test does with what the simulator sends. Event streams
 * pass through as they come; other answers are read whole, checked, then sent on unchanged.
 */
export interface CheckingProxy {
  url: string;
  /** Sends on to this simulator from now on. */
  target(url: string): void;
  /** The contract breaks seen since the last call, emptied. */
  takeViolations(): string[];
  close(): Promise<void>;
}

/** MCP and OAuth have no OpenAPI description; everything else the simulator serves has one. */
const UNDESCRIBED = /^\/(mcp|oauth\/|\.well-known\/)/;

export async function startCheckingProxy(): Promise<CheckingProxy> {
  let upstream: URL | undefined;
  let violations: string[] = [];
  const server: Server = createServer((req, res) => {
    if (!upstream) return void res.writeHead(502).end();
    const forward = httpRequest({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const streamed = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
      if (streamed || UNDESCRIBED.test(req.url ?? '')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        return void answer.pipe(res);
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        try {
          contract.assertValid({ method: req.method ?? 'GET', url: req.url ?? '/', status: answer.statusCode ?? 0, headers: answer.headers, body: body.toString('utf8') });
        } catch (error) {
          violations.push((error as Error).message);
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers).end(body);
      });
    });
    forward.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target: (url) => void (upstream = new URL(url)),
    takeViolations: () => {
      const seen = violations;
      violations = [];
      return seen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
