import { nestsDeeperThan, MAX_ID_LENGTH, MAX_MESSAGE_DEPTH } from './message-bounds.js';
import { WAIT_FOR_BUILD } from './wait-for-build.js';

/**
 * Which POSTs the stateless fast path may answer: one 2026-07-28 `tools/call` or `tools/list`
 * in the plainest form, where every step of the SDK's validation ladder is known to pass and
 * nothing can need a stream, a task or a notification. The test is strict on purpose: any
 * other shape (an extra key, a progress token, a task, a capability, a header spelled another
 * way, waitForBuild) is left to the SDK, so the fast path never has to reproduce a refusal
 * the SDK words itself. It reads and changes nothing: a declined request is served whole by
 * the SDK path, with nothing counted twice.
 */
export const FAST_PROTOCOL_VERSION = '2026-07-28';

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** Capabilities a client may declare without changing how a tool call is served. */
const PLAIN_CAPABILITIES = new Set(['roots', 'sampling', 'elicitation']);
/** A tool name that needs no decoding in `Mcp-Name` (no Base64 sentinel, no white space). */
const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
/** Headers that send a request elsewhere: a 2025-era session, a browser's origin check, a resumed stream. */
const ROUTED_ELSEWHERE = ['mcp-session-id', 'origin', 'last-event-id'];

export type FastCall =
  | { method: 'tools/list'; id: string | number }
  | { method: 'tools/call'; id: string | number; name: string; arguments: Record<string, unknown> };

export type HeaderOf = (name: string) => string | undefined;

/** The call to answer, or undefined to leave the request to the SDK path. */
export function fastCallOf(bodyText: string, header: HeaderOf): { call: FastCall; body: unknown } | undefined {
  if (header('mcp-protocol-version') !== FAST_PROTOCOL_VERSION) return undefined;
  const type = header('content-type');
  if (type === undefined || !JSON_TYPES.has(type.toLowerCase())) return undefined;
  for (const name of ROUTED_ELSEWHERE) if (header(name) !== undefined) return undefined;
  if (nestsDeeperThan(bodyText, MAX_MESSAGE_DEPTH)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  const call = plainCall(body, header);
  return call && { call, body };
}

function plainCall(body: unknown, header: HeaderOf): FastCall | undefined {
  if (!isPlainObject(body) || !onlyKeys(body, 'jsonrpc', 'id', 'method', 'params') || body.jsonrpc !== '2.0') return undefined;
  const { id, method, params } = body;
  if (!(typeof id === 'string' ? id.length <= MAX_ID_LENGTH : Number.isSafeInteger(id))) return undefined;
  if (header('mcp-method') !== method || !isPlainObject(params) || !plainEnvelope(params._meta)) return undefined;
  const mcpName = header('mcp-name');
  if (method === 'tools/list') return mcpName === undefined && onlyKeys(params, '_meta') ? { method, id: id as string | number } : undefined;
  if (method !== 'tools/call' || !onlyKeys(params, 'name', 'arguments', '_meta')) return undefined;
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string' || !PLAIN_NAME.test(name) || mcpName !== name || name === WAIT_FOR_BUILD.name || !isPlainObject(args)) return undefined;
  return { method, id: id as string | number, name, arguments: args };
}

/** The per-request `_meta`: the protocol version, the client's name and version, and capabilities that change nothing here. */
function plainEnvelope(meta: unknown): boolean {
  if (!isPlainObject(meta) || !onlyKeys(meta, PROTOCOL_VERSION_KEY, CLIENT_INFO_KEY, CLIENT_CAPABILITIES_KEY)) return false;
  if (meta[PROTOCOL_VERSION_KEY] !== FAST_PROTOCOL_VERSION) return false;
  const info = meta[CLIENT_INFO_KEY];
  if (!isPlainObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string' || !onlyKeys(info, 'name', 'version', 'title')) return false;
  if (info.title !== undefined && typeof info.title !== 'string') return false;
  const capabilities = meta[CLIENT_CAPABILITIES_KEY];
  if (!isPlainObject(capabilities)) return false;
  for (const [name, value] of Object.entries(capabilities)) if (!PLAIN_CAPABILITIES.has(name) || !isPlainObject(value) || Object.keys(value).length > 0) return false;
  return true;
}

/** Whether `value` has no keys but `allowed`. */
function onlyKeys(value: Record<string, unknown>, ...allowed: string[]): boolean {
  for (const key in value) if (!allowed.includes(key)) return false;
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}
