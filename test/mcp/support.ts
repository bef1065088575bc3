import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import type { EngineRequest } from '../../src/engine/types.js';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

/**
 * A simulator served over HTTP with its MCP endpoint, where every request a tool call makes
 * of the engine is recorded and its response validated against openapi.yaml: so every
 * `structuredContent` a test sees is a body the contract allows.
 */
export interface McpRig {
  simulator: Simulator;
  endpoint: McpEndpoint;
  baseUrl: string;
  /** Engine exchanges made on behalf of tool calls, in order. */
  exchanges: { request: EngineRequest; status: number; body: string }[];
  /** An MCP client over HTTP with this credential, in the 2025 (session) or 2026 (stateless) era. */
  client(credential: string, era?: '2025-11-25' | '2026-07-28'): Promise<Client>;
  close(): Promise<void>;
}

export async function mcpRig(options: SimulatorOptions = {}): Promise<McpRig> {
  const simulator = createSimulator({ frozenAt: T0, onFault: () => {}, ...options });
  const exchanges: McpRig['exchanges'] = [];
  const recording: Simulator = {
    ...simulator,
    handle(request, handleOptions) {
      const response = simulator.handle(request, handleOptions);
      const body = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('latin1');
      if (typeof response.body === 'string') {
        assertContract({ method: request.method, url: request.url, status: response.status, headers: response.headers, body });
      }
      exchanges.push({ request, status: response.status, body });
      return response;
    },
  };
  const endpoint = createMcpEndpoint(recording, { pollMs: 20 });
  const server: Server = createServer(createExpressApp(simulator, { mcp: endpoint }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clients: Client[] = [];
  return {
    simulator,
    endpoint,
    baseUrl,
    exchanges,
    async client(credential, era = '2025-11-25') {
      const client = new Client(
        { name: 'test', version: '1' },
        era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${credential}` } } });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await endpoint.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The JSON body of the last engine exchange: what REST would have answered the tool call. */
export function lastBody(rig: McpRig): unknown {
  const last = rig.exchanges.at(-1);
  expect(last, 'the tool call reached the engine').toBeDefined();
  return JSON.parse(last!.body);
}
