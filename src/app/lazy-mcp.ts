import type { Simulator } from '../simulator.js';
import type { McpEndpoint, McpEndpointOptions } from '../mcp/mcp-endpoint.js';

/**
 * The MCP endpoint, loaded on the first request to /mcp: the MCP SDK and its schemas are the
 * largest part of the start-up imports, and most runs never see an assistant.
 */
export function lazyMcpEndpoint(simulator: Simulator, options: McpEndpointOptions): McpEndpoint {
  let endpoint: Promise<McpEndpoint> | undefined;
  // Once loaded: the fast path is tried only then (the first request goes through fetch, which loads it).
  let loaded: McpEndpoint | undefined;
  const load = () => (endpoint ??= import('../mcp/mcp-endpoint.js').then((m) => (loaded = m.createMcpEndpoint(simulator, options))));
  return {
    fetch: async (request, client) => (await load()).fetch(request, client),
    fast: (request) => loaded?.fast?.(request),
    connect: async (credential) => (await load()).connect(credential),
    close: async () => {
      if (endpoint) await (await endpoint).close();
    },
  };
}
