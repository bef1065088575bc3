import type { EngineRequest } from '../engine/types.js';
import type { McpEndpoint, McpEndpointOptions } from '../mcp/mcp-endpoint.js';
import type { FastAnswer, FastRequest } from '../mcp/fast-path.js';
import type { Simulator } from '../simulator.js';
import { noAssets, type AssetSource } from './assets.js';
import { performFault, performToolFault, type AppResponse } from './fault-effects.js';
import { fromFetchRequest, toFetchResponse } from './fetch-io.js';
import { lazyMcpEndpoint } from './lazy-mcp.js';
import { mayBePage, staticPage } from './static-pages.js';
import { loopbackDemoKey } from './docs-page.js';
import type { MetadataDocumentsOptions } from '../oauth/client-metadata-documents.js';
import { metadataClientId } from './client-metadata-step.js';
import { handleYamlScenario, isYamlScenario } from './yaml-scenario.js';

export interface AppOptions {
  /** Where /docs, the dashboard and the served contracts come from. Default: none (they answer 404). */
  assets?: AssetSource;
  /**
   * /mcp: options for the endpoint the app builds (loaded on its first request, with the app's
   * fault effects on tool calls), an endpoint built elsewhere, or false for none. Default: on.
   */
  mcp?: McpEndpointOptions | McpEndpoint | false;
  /**
   * Client ID metadata documents: how the authorization server fetches a client's document
   * (the node:http adapters pass a fetcher that reaches public addresses only). Default: off,
   * and the server's metadata says they are not supported.
   */
  clientMetadata?: MetadataDocumentsOptions | false;
}

/**
 * Everything the simulator serves, in one place: the service API, `/_sim`, health, OAuth,
 * `/mcp`, `/docs`, the dashboard and the contracts, with injected faults performed once.
 * Adapters only translate: a Fetch runtime (Bun, Deno, msw, a worker) calls `fetch`; node:http
 * calls `handle` with the engine's plain request, which spares building Fetch objects per
 * request, and sends to `fetch` only what `byFetch` names (MCP, whose bodies stream).
 */
export interface App {
  /**
   * Answers a Fetch request. A server passes the client's address (Deno: `info.remoteAddr.hostname`,
   * Bun: `server.requestIP(request)?.address`): without it the request counts as made in-process,
   * which the control API and the guessing limits trust like a loopback client.
   */
  fetch(request: Request, client?: FetchClient): Promise<Response>;
  /** The plain path: synchronous unless an injected fault makes the answer wait. */
  handle(request: EngineRequest): AppResponse | Promise<AppResponse>;
  /** Whether a request to `url` (path and query) must go through `fetch`. */
  byFetch(url: string): boolean;
  /** A plain stateless MCP call answered from its text (see McpEndpoint.fast); undefined: send it to `fetch`. */
  fastMcp(request: FastRequest): Promise<FastAnswer> | undefined;
  /** Whether the simulator answers at `path`: what an interceptor for any origin takes over. */
  serves(path: string): boolean;
  readonly simulator: Simulator;
  /** Closes the MCP sessions and streams; the simulator itself holds nothing open. */
  close(): Promise<void>;
}

export interface FetchClient {
  remoteAddress?: string;
}

/** The paths the simulator answers on any origin; the dashboard at / only where it owns the origin. */
const SIMULATOR_PATHS = /^\/(?:api\/|_sim(?:\/|$)|healthz$|readyz$|oauth\/|\.well-known\/oauth-|mcp\/?$|docs(?:\/|$)|openapi\.(?:json|yaml)$|simulator-control\.(?:json|yaml)$|dashboard\/)/;

export function createApp(simulator: Simulator, options: AppOptions = {}): App {
  const assets = options.assets ?? noAssets;
  const mcp = endpointFor(simulator, options.mcp);
  const byFetch = (url: string) => mcp !== undefined && isMcpPath(url);
  const documents = simulator.internal.oauth.metadataDocuments;
  if (options.clientMetadata) documents.enable(options.clientMetadata);

  function handle(request: EngineRequest): AppResponse | Promise<AppResponse> {
    const { url } = request;
    if (mayBePage(url)) {
      const query = url.indexOf('?');
      const page = staticPage(request.method, query === -1 ? url : url.slice(0, query), request.headers.host, assets, () => loopbackDemoKey(simulator, request));
      if (page) return page;
    }
    // A client that names itself by a metadata document is fetched first: the OAuth endpoints answer synchronously.
    const clientId = documents.enabled ? metadataClientId(request) : null;
    if (clientId !== null) return documents.prepare(clientId, simulator.clock.now()).then(() => performFault(simulator.handle(request)));
    if (isYamlScenario(request)) return handleYamlScenario(simulator, request).then(performFault);
    return performFault(simulator.handle(request));
  }

  return {
    simulator,
    handle,
    byFetch,
    fastMcp: (request) => mcp?.fast?.(request),
    serves: (path) => SIMULATOR_PATHS.test(path),
    async fetch(request, client) {
      const url = new URL(request.url);
      if (mcp && isMcpPath(url.pathname)) return mcp.fetch(request, client);
      return toFetchResponse(await handle(await fromFetchRequest(request, client?.remoteAddress)));
    },
    close: async () => mcp?.close(),
  };
}

function endpointFor(simulator: Simulator, option: AppOptions['mcp']): McpEndpoint | undefined {
  if (option === false) return undefined;
  if (option && 'fetch' in option) return option;
  return lazyMcpEndpoint(simulator, { ...option, faultEffects: performToolFault });
}

function isMcpPath(url: string): boolean {
  return url === '/mcp' || url === '/mcp/' || url.startsWith('/mcp?') || url.startsWith('/mcp/?');
}
