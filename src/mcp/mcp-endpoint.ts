import {
  createMcpHandler,
  hostHeaderValidationResponse,
  InMemoryTransport,
  isInitializeRequest,
  isLegacyRequest,
  localhostAllowedHostnames,
  originValidationResponse,
  ProtocolError,
  ProtocolErrorCode,
  readRequestBody,
  type AuthInfo,
  type Transport,
} from '@modelcontextprotocol/server';
import { apiKeyVerifier } from '../auth/authenticate.js';
import type { CredentialVerifier, Principal } from '../auth/principal.js';
import { serviceDocument } from '../contract/openapi.generated.js';
import { readOperations } from '../contract/operations.js';
import { MAX_BODY_BYTES } from '../engine/http-body.js';
import type { Simulator } from '../simulator.js';
import { authenticateMcp, insufficientScope, type McpAuthOptions } from './mcp-auth.js';
import { createMcpServer, type McpServerDeps } from './mcp-server.js';
import { LegacySessions } from './legacy-sessions.js';
import { buildToolCatalog } from './tool-catalog.js';
import { WAIT_FOR_BUILD } from './wait-for-build.js';

/**
 * `/mcp` over Streamable HTTP, on Fetch `Request`/`Response`: DNS-rebinding guard, bearer
 * authentication (API keys, plus any verifier added), the scope challenge, then the
 * 2026-07-28 stateless path or a 2025-era session. Every tool call runs in the engine.
 */
export interface McpEndpointOptions {
  /** More credential kinds, tried after API keys and the simulator's own OAuth access tokens. */
  verifiers?: CredentialVerifier[];
  challengeParams?: McpAuthOptions['challengeParams'];
  /** Host names besides localhost that may appear in `Host` and `Origin` (the public URL's). */
  allowedHostnames?: string[];
  /** Real milliseconds between reads of a build by waitForBuild. Default 200. */
  pollMs?: number;
  /** 2025-era sessions kept at once; the oldest is closed beyond it. Default 1000. */
  maxSessions?: number;
  /** Told of unexpected faults (the client sees a bare 500). Default: console.error. */
  onFault?: (error: unknown) => void;
}

export interface McpEndpoint {
  fetch(request: Request): Promise<Response>;
  /** An in-process connection for a credential: hand the transport to an MCP client. */
  connect(credential: string): Promise<Transport>;
  close(): Promise<void>;
}

export function createMcpEndpoint(simulator: Simulator, options: McpEndpointOptions = {}): McpEndpoint {
  const tools = buildToolCatalog(serviceDocument, readOperations(serviceDocument, 'service'));
  const deps: McpServerDeps = {
    tools,
    engine: (request, handleOptions) => simulator.handle(request, handleOptions),
    wait: { tools, pollMs: options.pollMs ?? 200, maxTimeoutSeconds: 3600 },
  };
  const { oauth } = simulator.sim;
  const auth: McpAuthOptions = {
    verifiers: [apiKeyVerifier(simulator.sim.store), oauth.accessTokenVerifier, ...(options.verifiers ?? [])],
    // RFC 9728 §5.1: the challenge tells an OAuth client where to discover how to sign in.
    challengeParams: options.challengeParams ?? (() => ({ resource_metadata: oauth.resourceMetadataUrl })),
  };
  const hostnames = [...localhostAllowedHostnames(), ...(options.allowedHostnames ?? []), new URL(oauth.issuer).hostname];
  const modern = createMcpHandler(() => createMcpServer(deps), { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES });
  const sessions = new LegacySessions(() => createMcpServer(deps), options.maxSessions ?? 1000);

  async function handle(request: Request): Promise<Response> {
    const rejected = hostHeaderValidationResponse(request, hostnames) ?? originValidationResponse(request, hostnames);
    if (rejected) return rejected;
    const authenticated = authenticateMcp(request, auth, simulator.clock.now());
    if ('response' in authenticated) return authenticated.response;
    const { principal } = authenticated;

    let parsedBody: unknown;
    let forward = request;
    if (request.method === 'POST') {
      const body = await readRequestBody(request, MAX_BODY_BYTES);
      if (body.tooLarge) return jsonResponse(413, { error: `The body exceeds ${MAX_BODY_BYTES} bytes.`, code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: MAX_BODY_BYTES } });
      forward = new Request(request.url, { method: 'POST', headers: request.headers, body: body.text });
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        return rpcError(400, -32700, 'Parse error: the body is not valid JSON.');
      }
      const refusal = scopeRefusal(request, parsedBody, principal);
      if (refusal) return refusal;
    }
    const authInfo: AuthInfo = { token: 'redacted', clientId: principal.credentialId, scopes: [...principal.scopes], extra: { principal } };
    const handleOptions = parsedBody === undefined ? { authInfo } : { authInfo, parsedBody };
    if (await isLegacyRequest(forward, parsedBody)) {
      const initialize = Array.isArray(parsedBody) ? parsedBody.some(isInitializeRequest) : isInitializeRequest(parsedBody);
      return sessions.handle(forward, principal, initialize, handleOptions);
    }
    return modern.fetch(forward, handleOptions);
  }

  /** A tool whose scope the credential lacks is refused before any session or engine work. */
  function scopeRefusal(request: Request, body: unknown, principal: Principal): Response | undefined {
    for (const message of Array.isArray(body) ? body : [body]) {
      if (!message || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') continue;
      const name = (message as { params?: { name?: unknown } }).params?.name;
      const scope = name === WAIT_FOR_BUILD.name ? 'svc:read' : typeof name === 'string' ? tools.get(name)?.scope : undefined;
      if (scope && !principal.scopes.includes(scope)) return insufficientScope(request, auth, principal, scope, name as string);
    }
    return undefined;
  }

  return {
    fetch: async (request) => {
      try {
        return await handle(request);
      } catch (error) {
        (options.onFault ?? ((e) => console.error('[mcp] unexpected fault:', e)))(error);
        return jsonResponse(500, { error: 'The simulator hit an unexpected fault.', code: 'INTERNAL_ERROR', details: {} });
      }
    },
    async connect(credential) {
      const caller = (): Principal => {
        const outcome = auth.verifiers.map((verify) => verify(credential, simulator.clock.now())).find((o) => o !== null);
        if (!outcome || 'refused' in outcome) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, outcome ? outcome.refused : 'The credential is not recognised.');
        return outcome;
      };
      caller(); // refuse at once a credential that is no good now
      const [client, server] = InMemoryTransport.createLinkedPair();
      await createMcpServer(deps, caller).connect(server);
      return client;
    },
    async close() {
      await Promise.all([modern.close(), sessions.closeAll()]);
    },
  };
}

function rpcError(status: number, code: number, message: string): Response {
  return jsonResponse(status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}
