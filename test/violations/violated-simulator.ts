import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressApp } from '../../src/adapters/express.js';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/mcp-endpoint.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.js';
import type { Violation } from './catalog.js';
import { inProcessFetch } from './in-process-fetch.js';
import type { Handle } from './tamper.js';

export interface TestTarget {
  simulator: Simulator;
  handle: Handle;
  /** A fetch that calls `handle` in this process (and the MCP endpoint for /mcp). */
  fetch: ReturnType<typeof inProcessFetch>;
  /** The MCP server at /mcp, on the same simulator (possibly broken by the violation). */
  mcp: McpFetch;
}

export type McpFetch = (request: Request) => Promise<Response>;

/** A simulator, broken by one violation when given one. Faults are expected, so they are not logged. */
export function simulatorUnderTest(violation?: Violation, options: SimulatorOptions = {}): TestTarget {
  const simulator = createSimulator({ onFault: () => {}, ...options, ...violation?.options });
  // The suite reaches it at http://simulator.in-process: that is the OAuth issuer (a loopback server sets its own).
  simulator.internal.oauth.setListeningUrl('http://simulator.in-process');
  const handle = violation?.wrap ? violation.wrap((request) => simulator.handle(request), simulator) : (request: Parameters<Handle>[0]) => simulator.handle(request);
  const endpoint: McpEndpoint = createMcpEndpoint(simulator, { onFault: () => {} });
  const mcp = violation?.wrapMcp ? violation.wrapMcp((request) => endpoint.fetch(request)) : (request: Request) => endpoint.fetch(request);
  const rest = inProcessFetch(handle);
  // The MCP endpoint checks Host: the in-process requests come from the loopback address.
  const toMcp = (init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('host', '127.0.0.1');
    return mcp(new Request('http://127.0.0.1/mcp', { ...init, headers }));
  };
  const fetch: typeof rest = (input, init) => (new URL(input).pathname === '/mcp' ? toMcp(init) : rest(input, init));
  return { simulator, handle, fetch, mcp };
}

/** Serves a target's (possibly broken) handle over the express adapter on a loopback port. */
export async function serveOnLoopback(target: TestTarget): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const proxy = { ...target.simulator, handle: target.handle } as Simulator;
  const mcp = { fetch: target.mcp, connect: () => Promise.reject(new Error('not in-process')), close: async () => {} };
  const server: Server = createServer(createExpressApp(proxy, { mcp }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  target.simulator.internal.oauth.setListeningUrl(`http://127.0.0.1:${port}`);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections(); // fetch keeps connections alive
      }),
  };
}
