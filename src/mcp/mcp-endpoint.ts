import {
  createMcpHandler,
  InMemoryTransport,
  isInitializeRequest,
  isLegacyRequest,
  localhostAllowedHostnames,
  originValidationResponse,
  ProtocolError,
  ProtocolErrorCode,
  type AuthInfo,
  type Transport,
  validateHostHeader,
} from '@modelcontextprotocol/server';
import { apiKeyVerifier } from '../auth/authenticate.js';
import type { CredentialVerifier, Principal } from '../auth/principal.js';
import { serviceDocument } from '../contract/openapi.generated.js';
import { readOperations } from '../contract/operations.js';
import { MAX_BODY_BYTES } from '../engine/http-body.js';
import { capacityExceeded } from '../limits/capacity.js';
import type { Simulator } from '../simulator.js';
import { revokedChallenge, type McpAuthOptions } from './mcp-auth.js';
import { apiErrorAnswer, createMcpGate } from './mcp-gate.js';
import { plainJson, toResponse } from './plain-answer.js';
import { createFastPath, type FastAnswer, type FastRequest } from './fast-path.js';
import { idProblem, MAX_MESSAGE_DEPTH, readBoundedBody, uncountedMessages } from './message-bounds.js';
import { createMcpServer, type McpServerDeps } from './mcp-server.js';
import type { HandledResponse } from '../engine/engine.js';
import { DEFAULT_SESSION_LIMITS, LegacySessions } from './legacy-sessions.js';
import { rpcError } from './rpc-error.js';
import { ServerPool } from './server-pool.js';
import { claimsModernEra, mayBeInitialize } from './stateless-route.js';
import { buildToolCatalog } from './tool-catalog.js';
import { createTaskService } from './tasks/task-service.js';
import { MAX_WAITS_PER_ACCOUNT, WaitSlots } from './wait-for-build.js';

export type { FastAnswer, FastRequest } from './fast-path.js';
export type { PlainAnswer } from './plain-answer.js';

/**
 * `/mcp` over Streamable HTTP, on Fetch `Request`/`Response`: DNS-rebinding guard, bearer
 * authentication (API keys, plus any verifier added), the scope challenge, then the
 * 2026-07-28 stateless path or a 2025-era session. Every tool call runs in the engine.
 * `fast` answers the plainest stateless calls from their text with the same checks (see fast-path).
 */
export interface McpEndpointOptions {
  /** More credential kinds, tried after API keys and the simulator's own OAuth access tokens. */
  verifiers?: CredentialVerifier[];
  challengeParams?: McpAuthOptions['challengeParams'];
  /** Host names besides localhost that may appear in `Host` and `Origin` (the public URL's). */
  allowedHostnames?: string[];
  /** Real milliseconds between the first two reads of a build by waitForBuild; later pauses grow to 2 s. Default 200. */
  pollMs?: number;
  /** MCP tasks one account holds at once (ended ones make room first). Default 100. */
  maxTasksPerAccount?: number;
  /** waitForBuild calls one account may have open at once. Default 10. */
  maxWaitsPerAccount?: number;
  /** 2025-era sessions kept at once, all accounts together; beyond it a new one is refused (503). Default 1000. */
  maxSessions?: number;
  /** 2025-era sessions one account keeps at once; its least recently used is closed beyond it. Default 32. */
  maxSessionsPerAccount?: number;
  /** Real milliseconds a 2025-era session may go unused before it is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Told of unexpected faults (the client sees a bare 500). Default: console.error. */
  onFault?: (error: unknown) => void;
  /**
   * Performs injected faults' timing on tool calls (the app passes its own): resolves when the
   * answer is due, or to 'dropped', and the HTTP exchange that carried the call is then cut.
   */
  faultEffects?: (response: HandledResponse) => Promise<HandledResponse | 'dropped'>;
  /**
   * Plain stateless `tools/call` and `tools/list` answered without the SDK (see fast-path),
   * with the same bytes. Default true; false sends every request through the SDK (for the
   * tests that compare both paths).
   */
  fastPath?: boolean;
}

export interface McpEndpoint {
  /** Answers a request; `client.remoteAddress`, when given, counts failed authentications per address as the service API does. */
  fetch(request: Request, client?: { remoteAddress?: string }): Promise<Response>;
  /**
   * The same answer from a POST's text and headers, for an adapter that has them without a
   * Fetch `Request`; undefined means "send it to `fetch`" (nothing of it was counted).
   */
  fast?(request: FastRequest): Promise<FastAnswer> | undefined;
  /** An in-process connection for a credential: hand the transport to an MCP client. */
  connect(credential: string): Promise<Transport>;
  close(): Promise<void>;
}

export function createMcpEndpoint(simulator: Simulator, options: McpEndpointOptions = {}): McpEndpoint {
  const tools = buildToolCatalog(serviceDocument, readOperations(serviceDocument, 'service'));
  // Each HTTP exchange's caller, to the function that cuts that exchange (a dropped tool call).
  const cuts = new WeakMap<Principal, () => void>();
  const { faultEffects } = options;
  const deps: McpServerDeps = {
    tools,
    engine: (request, handleOptions) => simulator.handle(request, handleOptions),
    ...(faultEffects ? { effects: async (response, principal) => {
      const outcome = await faultEffects(response);
      if (outcome === 'dropped' && principal) cuts.get(principal)?.();
      return outcome;
    } } : {}),
    wait: { tools, pollMs: options.pollMs ?? 200, maxTimeoutSeconds: 3600, slots: new WaitSlots(options.maxWaitsPerAccount ?? MAX_WAITS_PER_ACCOUNT) },
  };
  deps.tasks = createTaskService(simulator, tools, deps.engine, options.maxTasksPerAccount);
  const { oauth } = simulator.internal;
  const defaultChallenge = () => ({ resource_metadata: oauth.resourceMetadataUrl });
  const auth: McpAuthOptions = {
    verifiers: [apiKeyVerifier(simulator.internal.store), oauth.accessTokenVerifier, ...(options.verifiers ?? [])],
    // RFC 9728 §5.1: the challenge tells an OAuth client where to discover how to sign in.
    challengeParams: options.challengeParams ?? defaultChallenge,
  };
  const gate = createMcpGate(simulator, auth, tools);
  const hostnames = [...localhostAllowedHostnames(), ...(options.allowedHostnames ?? []), new URL(oauth.issuer).hostname];
  // Stateless requests reuse idle servers: the tools, resources and prompts are registered once per instance, not per call.
  const pool = new ServerPool(() => createMcpServer(deps));
  const modern = createMcpHandler(() => pool.take(), { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES });
  const allowedHosts = new Set<string>();
  // Only with the default challenge: a custom one is given the Fetch request, which the fast path has not.
  const fast = options.fastPath !== false && !options.challengeParams ? createFastPath({ simulator, gate, server: deps, challenge: defaultChallenge, knownHosts: allowedHosts, cuts }) : undefined;
  const sessions = new LegacySessions(() => createMcpServer(deps), {
    maxSessions: options.maxSessions ?? DEFAULT_SESSION_LIMITS.maxSessions,
    maxPerAccount: options.maxSessionsPerAccount ?? DEFAULT_SESSION_LIMITS.maxPerAccount,
    idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_LIMITS.idleMs,
  });

  async function handle(request: Request, client: { remoteAddress?: string } = {}): Promise<Response> {
    const rejected = hostRefusal(request, hostnames, allowedHosts) ?? originValidationResponse(request, hostnames);
    if (rejected) return rejected;
    const extra = () => auth.challengeParams?.(request) ?? {};
    const authenticated = gate.authenticate(request.headers.get('authorization'), request.method, client.remoteAddress, extra);
    if ('answer' in authenticated) return toResponse(authenticated.answer);
    const { principal } = authenticated;

    let parsedBody: unknown;
    let bodyText: string | undefined;
    if (request.method === 'POST') {
      // Bounded before any parsing work is spent on it: size, and nesting followed as the body arrives.
      const body = await readBoundedBody(request, MAX_BODY_BYTES, MAX_MESSAGE_DEPTH);
      if ('refused' in body && body.refused === 'tooLarge') return toResponse(plainJson(413, { error: `The body exceeds ${MAX_BODY_BYTES} bytes.`, code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: MAX_BODY_BYTES } }));
      if ('refused' in body) return rpcError(400, -32600, `Invalid Request: the body nests deeper than ${MAX_MESSAGE_DEPTH} levels.`);
      // The body may have taken long to arrive: a credential revoked meanwhile is refused now.
      const revoked = principal.revoked?.(simulator.clock.now());
      if (revoked) return toResponse(revokedChallenge(extra, revoked));
      bodyText = body.text;
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        return rpcError(400, -32700, 'Parse error: the body is not valid JSON.');
      }
      const badId = idProblem(parsedBody);
      if (badId) return rpcError(400, -32600, `Invalid Request: ${badId}.`);
      const refusal = gate.scopeRefusal(parsedBody, principal, extra);
      if (refusal) return toResponse(refusal);
    }
    const initialize = Array.isArray(parsedBody) ? parsedBody.some(isInitialize) : isInitialize(parsedBody);
    // What opens a session or a stream waits while the memory budget is used up; a new session counts like a request.
    if (simulator.internal.capacity.exceeded && (initialize || request.method === 'GET')) return toResponse(apiErrorAnswer(capacityExceeded(simulator.internal.capacity)));
    // Every message counts like a REST request (tool calls in the engine, as the request each stands for).
    const counted = (initialize ? 1 : 0) + (request.method === 'POST' ? uncountedMessages(parsedBody) : 0);
    for (let i = 0; i < counted; i++) {
      const refused = gate.rateLimited(principal);
      if (refused) return toResponse(refused);
    }
    const authInfo: AuthInfo = { token: 'redacted', clientId: principal.credentialId, scopes: [...principal.scopes], extra: { principal } };
    const handleOptions = parsedBody === undefined ? { authInfo } : { authInfo, parsedBody };
    // The SDK reads nothing more of a request whose body it is given: the one whose body was read here serves the modern path as it is.
    const answer = (await isLegacy(request, parsedBody)) ? sessions.handle(replayable(request, bodyText), principal, initialize, handleOptions, () => !principal.revoked?.(simulator.clock.now())) : modern.fetch(request, handleOptions);
    if (!faultEffects) return answer;
    // A dropped tool call ends its exchange as a network failure: no answer at all.
    return new Promise<Response>((resolve, reject) => {
      cuts.set(principal, () => resolve(Response.error()));
      answer.then(resolve, reject);
    });
  }

  const onFault = options.onFault ?? ((e) => console.error('[mcp] unexpected fault:', e));
  const faulted = (error: unknown) => {
    onFault(error);
    return plainJson(500, { error: 'The simulator hit an unexpected fault.', code: 'INTERNAL_ERROR', details: {} });
  };
  return {
    fetch: async (request, client) => {
      try {
        return await handle(request, client);
      } catch (error) {
        return toResponse(faulted(error));
      }
    },
    ...(fast ? { fast: (request: FastRequest) => fast(request)?.catch(faulted) } : {}),
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

/**
 * The DNS-rebinding guard on Host. A request made in-process (msw, a Fetch runtime's handler
 * called directly) carries no Host header, and cannot: its URL names the authority, which a
 * server's URL always takes from Host (node:http refuses a request without one).
 */
function hostRefusal(request: Request, hostnames: string[], allowed: Set<string>): Response | undefined {
  const host = request.headers.get('host') ?? new URL(request.url).host;
  if (allowed.has(host)) return undefined;
  const result = validateHostHeader(host, hostnames);
  if (!result.ok) return rpcError(403, -32000, result.message);
  // Clients send one Host or a few: the verdict on each is kept, bounded, so it is parsed once.
  if (allowed.size < MAX_REMEMBERED_HOSTS) allowed.add(host);
  return undefined;
}

const MAX_REMEMBERED_HOSTS = 64;

/** `isInitializeRequest` is a schema parse, costly when it fails: only a message named `initialize` can be one. */
function isInitialize(message: unknown): boolean {
  return mayBeInitialize(message) && isInitializeRequest(message);
}

/** The SDK's own era routing, skipped for the plain stateless request that it always routes to the modern path. */
async function isLegacy(request: Request, parsedBody: unknown): Promise<boolean> {
  if (request.method === 'POST' && claimsModernEra(parsedBody)) return false;
  return isLegacyRequest(request, parsedBody);
}

/** The request with its body again (it was read here), for the 2025-era transport. */
function replayable(request: Request, bodyText: string | undefined): Request {
  return bodyText === undefined ? request : new Request(request.url, { method: 'POST', headers: request.headers, body: bodyText });
}

