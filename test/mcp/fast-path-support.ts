import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

/**
 * One simulator served by node:http with its MCP endpoint, the fast path on or off, where
 * every engine answer a tool call gets is validated against openapi.yaml; and raw POSTs
 * whose whole answer (status, head, body) comes back as bytes, to compare two servers.
 */
export interface Side {
  simulator: Simulator;
  endpoint: McpEndpoint;
  port: number;
  /** Requests the fast path answered (it declined the others). */
  fastAnswers: number;
  close(): Promise<void>;
}

export async function serveSide(fastPath: boolean, options: SimulatorOptions = {}): Promise<Side> {
  // Secrets drawn from the seed: keys made by createApiKey or rotateApiKey are then the same on both sides.
  const simulator = createSimulator({ seed: 'fast-path', frozenAt: T0, deterministicSecrets: true, onFault: () => {}, ...options });
  const validated: Simulator = {
    ...simulator,
    handle(request, handleOptions) {
      const response = simulator.handle(request, handleOptions);
      // A file's answer (downloadDeliverable) is checked too, as the test harness checks every answer.
      const body = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('latin1');
      assertContract({ method: request.method, url: request.url, status: response.status, headers: response.headers, body });
      return response;
    },
  };
  const inner = createMcpEndpoint(validated, { pollMs: 20, fastPath });
  const side: Side = { simulator, endpoint: inner, port: 0, fastAnswers: 0, close: async () => {} };
  const endpoint: McpEndpoint = {
    ...inner,
    fetch: (r, c) => inner.fetch(r, c),
    ...(inner.fast ? { fast: (r) => { const answer = inner.fast!(r); if (answer) side.fastAnswers++; return answer; } } : {}),
  };
  side.endpoint = endpoint;
  const server: Server = createServer(createNodeHandler(simulator, { mcp: endpoint }));
  // A loaded machine can leave a kept-alive connection idle past node's 5 s, and a client
  // reusing it as the server closes it reads a reset: the connections outlive the test instead.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  side.port = (server.address() as AddressInfo).port;
  simulator.internal.oauth.setListeningUrl(`http://127.0.0.1:${side.port}`);
  side.close = async () => {
    await inner.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return side;
}

export interface RawAnswer {
  status: number;
  /** The head as sent, names and values in order, without the ones that name the moment (Date) or the connection. */
  head: string[];
  body: string;
}

/** Headers that say when the answer was sent or how the connection is kept, not what was answered. */
const MOMENT_HEADERS = new Set(['date', 'connection', 'keep-alive']);

export function rawPost(port: number, headers: Record<string, string>, body: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const head: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (!MOMENT_HEADERS.has(res.rawHeaders[i]!.toLowerCase())) head.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        // Each server names its own address (the OAuth metadata URL): the same answer otherwise.
        const own = (text: string) => text.replaceAll(`127.0.0.1:${port}`, '127.0.0.1:PORT');
        resolve({ status: res.statusCode ?? 0, head: head.map(own), body: own(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
