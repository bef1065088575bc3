import type { Principal } from '../auth/principal.js';
import type { Simulator } from '../simulator.js';
import { fastCallOf, type FastCall, type HeaderOf } from './fast-call.js';
import { revokedChallenge, type ChallengeParams } from './mcp-auth.js';
import type { McpGate } from './mcp-gate.js';
import { runToolCall, SERVER_INFO, TOOL_LIST_CACHE, toolList, type McpServerDeps } from './mcp-server.js';
import type { PlainAnswer } from './plain-answer.js';

/**
 * The stateless fast path: a plain 2026-07-28 `tools/call` or `tools/list` (see fast-call)
 * answered from its text, without a Fetch `Request`/`Response` or the SDK's schema parses.
 * The checks are the endpoint's own (the gate), in the same order, and a call runs the same
 * `runToolCall` as the SDK's handler, so only the JSON-RPC framing is done here: the result
 * stamped as the SDK stamps it on this revision (`resultType`, the cache fields of a list,
 * the server's identity in `_meta`) and sent as the SDK sends a JSON answer.
 */
export interface FastRequest {
  /** A request header by its lowercase name; undefined when absent. A repeated header is not given here at all. */
  header: HeaderOf;
  bodyText: string;
  remoteAddress?: string;
}

/** The answer, or 'dropped' when an injected fault cuts the exchange (no answer at all). */
export type FastAnswer = PlainAnswer | 'dropped';

export interface FastPathDeps {
  simulator: Simulator;
  gate: McpGate;
  server: McpServerDeps;
  challenge: ChallengeParams;
  /** Host headers the endpoint has let through before: any other goes to the full path, which checks it. */
  knownHosts: ReadonlySet<string>;
  /** Where a dropped tool call finds how to cut its exchange (the endpoint's, shared with the SDK path). */
  cuts: WeakMap<Principal, () => void>;
}

const SERVER_META = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** Answers the request, or returns undefined (having read nothing but its text and headers) to leave it to the SDK path. */
export function createFastPath(deps: FastPathDeps): (request: FastRequest) => Promise<FastAnswer> | undefined {
  let listResult: string | undefined;
  const { gate, simulator } = deps;

  async function serve(call: FastCall, body: unknown, request: FastRequest): Promise<FastAnswer> {
    const authenticated = gate.authenticate(request.header('authorization') ?? null, 'POST', request.remoteAddress, deps.challenge);
    if ('answer' in authenticated) return authenticated.answer;
    const { principal } = authenticated;
    const revoked = principal.revoked?.(simulator.clock.now());
    if (revoked) return revokedChallenge(deps.challenge, revoked);
    const refusal = gate.scopeRefusal(body, principal, deps.challenge);
    if (refusal) return refusal;
    if (call.method === 'tools/list') {
      // Every message but a tool call counts in the rate limits here, as on the SDK path.
      const refused = gate.rateLimited(principal);
      if (refused) return refused;
      // Without `execution`: the 2026-07-28 encoding drops that field (tasks are the server's decision there).
      listResult ??= JSON.stringify({ tools: toolList(deps.server.tools, deps.server.tasks).map(withoutExecution), resultType: 'complete', ...TOOL_LIST_CACHE, _meta: SERVER_META });
      return answer(`{"result":${listResult},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`);
    }
    let dropped = false;
    if (deps.server.effects) deps.cuts.set(principal, () => (dropped = true));
    try {
      const result = await runToolCall(deps.server, call.name, call.arguments, principal);
      if (dropped) return 'dropped';
      return answer(JSON.stringify({ result: { ...result, resultType: 'complete', _meta: SERVER_META }, jsonrpc: '2.0', id: call.id }));
    } catch (error) {
      if (dropped) return 'dropped';
      return answer(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: rpcErrorOf(error) }));
    }
  }

  return (request) => {
    const host = request.header('host');
    if (host === undefined || !deps.knownHosts.has(host)) return undefined;
    const found = fastCallOf(request.bodyText, request.header);
    return found && serve(found.call, found.body, request);
  };
}

function withoutExecution(tool: Record<string, unknown>): Record<string, unknown> {
  if (!('execution' in tool)) return tool;
  const { execution: _dropped, ...rest } = tool;
  return rest;
}

function answer(body: string): PlainAnswer {
  return { status: 200, headers: JSON_HEADERS, body };
}

/** A thrown error as the SDK's protocol layer words it in a JSON-RPC error. */
function rpcErrorOf(error: unknown): { code: number; message: string; data?: unknown } {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  return { code: Number.isSafeInteger(code) ? (code as number) : -32603, message: typeof message === 'string' ? message : 'Internal error', ...(data !== undefined ? { data } : {}) };
}
