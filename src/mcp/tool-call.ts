import type { Principal } from '../auth/principal.js';
import type { HandledResponse, HandleOptions } from '../engine/engine.js';
import type { EngineRequest } from '../engine/types.js';
import type { ToolDefinition } from './tool-catalog.js';

/**
 * A tool call is the REST request it stands for: the arguments become the path, query,
 * headers and body; the engine's answer becomes the tool result, with `structuredContent`
 * equal to the JSON body. An error is an `isError` result whose text is the spec's
 * `{ error, code, details }` and which has no `structuredContent`: clients check that
 * against the tool's output schema (the success body), and the 1.x SDK and the Inspector
 * throw away the whole result when it does not match.
 */
type Json = Record<string, unknown>;

export interface ErrorBody {
  error: string;
  code: string;
  details: Json;
}

/** Arguments nested deeper than this are refused: no operation's input comes near it. */
export const MAX_ARGUMENT_DEPTH = 64;

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string } };

export interface ToolResult {
  [key: string]: unknown;
  content: ContentBlock[];
  structuredContent?: Json;
  isError?: boolean;
}

export type EngineCall = (request: EngineRequest, options: HandleOptions) => HandledResponse;

/**
 * Performs the timing of an injected fault on a tool call, as the app does for every other
 * request: resolves when the answer is due, or to 'dropped' when its connection is to be cut.
 */
export type ToolFaultEffects = (response: HandledResponse, principal: Principal | undefined) => Promise<HandledResponse | 'dropped'>;

/** A tool call with its fault performed: late when a rule delays it, an error when one drops it. */
export async function callToolWithFaults(tool: ToolDefinition, args: Json, principal: Principal | undefined, engine: EngineCall, effects?: ToolFaultEffects): Promise<ToolResult> {
  let answered: HandledResponse | undefined;
  const result = callTool(tool, args, principal, (request, options) => (answered = engine(request, options)));
  if (!effects || (!answered?.fault && !answered?.durable)) return result;
  const performed = await effects(answered, principal);
  if (performed === 'dropped') throw new Error('The connection was dropped by an injected fault.');
  // The state log could not keep what the call changed: the tool reports the failure, not the success.
  return performed === answered ? result : toToolResult(performed, `/${tool.operation.operationId}`);
}

export function callTool(tool: ToolDefinition, args: Json, principal: Principal | undefined, engine: EngineCall): ToolResult {
  const tooDeep = Object.keys(args).filter((name) => depthExceeds(args[name], MAX_ARGUMENT_DEPTH));
  if (tooDeep.length) {
    const fields = tooDeep.map((path) => ({ path, message: `nests deeper than ${MAX_ARGUMENT_DEPTH} levels` }));
    return errorResult({ error: 'The tool arguments are not valid.', code: 'VALIDATION_ERROR', details: { fields } });
  }
  const request = toEngineRequest(tool, args);
  if ('problems' in request) {
    return errorResult({ error: 'The tool arguments are not valid.', code: 'VALIDATION_ERROR', details: { fields: request.problems } });
  }
  return toToolResult(engine(request, { principal }), request.url);
}

export function toEngineRequest(tool: ToolDefinition, args: Json): EngineRequest | { problems: { path: string; message: string }[] } {
  const problems: { path: string; message: string }[] = [];
  const rest: Json = { ...args };
  let path = tool.operation.template;
  let query: URLSearchParams | undefined;
  const headers: Record<string, string> = {};
  // One pass in the contract's order: path problems, query order and header names come out as they are declared.
  for (const arg of tool.arguments) {
    const value = rest[arg.name];
    delete rest[arg.name];
    if (arg.in === 'path') {
      if (typeof value !== 'string' && typeof value !== 'number') {
        problems.push({ path: arg.name, message: 'is required' });
        continue;
      }
      path = path.replace(`{${arg.wireName}}`, encodeURIComponent(String(value)));
    } else if (arg.in === 'query') {
      if (value === undefined || value === null) continue;
      query ??= new URLSearchParams();
      for (const item of Array.isArray(value) ? value : [value]) query.append(arg.wireName, typeof item === 'object' ? JSON.stringify(item) : String(item));
    } else if (arg.in === 'header') {
      if (value !== undefined && value !== null) headers[arg.wireName.toLowerCase()] = String(value);
    }
  }
  let body: unknown;
  if (tool.body === 'nested') {
    body = rest.body;
    delete rest.body;
  } else if (tool.body === 'flat' && Object.keys(rest).length > 0) {
    body = rest;
  }
  if (tool.body !== 'flat') for (const name of Object.keys(rest)) problems.push({ path: name, message: 'is not an argument of this tool' });
  if (problems.length) return { problems };
  const request: EngineRequest = { method: tool.operation.method, url: query?.size ? `${path}?${query}` : path, headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    request.body = new TextEncoder().encode(JSON.stringify(body));
  }
  return request;
}

export function toToolResult(response: HandledResponse, url: string): ToolResult {
  const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  if (type === 'application/json') {
    const json = JSON.parse(response.body as string) as Json;
    return response.status >= 400 ? errorResult(json) : { content: [{ type: 'text', text: response.body as string }], structuredContent: json };
  }
  if (response.status >= 400) {
    return errorResult({ error: `The service answered ${response.status}.`, code: 'INTERNAL_ERROR', details: {} });
  }
  if (!type) return { content: [{ type: 'text', text: `Done (HTTP ${response.status}, no content).` }] };
  return { content: [fileContent(type, response, url)] };
}

/** Files come back as content of their kind: text documents as resources, media as media. */
function fileContent(type: string, response: HandledResponse, url: string): ContentBlock {
  const uri = `content-service://service${url}`;
  if (type === 'image/svg+xml' || type.startsWith('image/')) return { type: 'image', data: base64(response.body), mimeType: type };
  if (type.startsWith('audio/')) return { type: 'audio', data: base64(response.body), mimeType: type };
  if (typeof response.body === 'string') return { type: 'resource', resource: { uri, mimeType: type, text: response.body } };
  return { type: 'resource', resource: { uri, mimeType: type, blob: base64(response.body) } };
}

export function errorResult(json: Json): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(json) }], isError: true };
}

/** The `{ error, code, details }` of an error result (read back from its text), or undefined. */
export function toolError(result: ToolResult): ErrorBody | undefined {
  if (!result.isError) return undefined;
  const block = result.content[0];
  if (block?.type !== 'text') return undefined;
  try {
    const body = JSON.parse(block.text) as Partial<ErrorBody>;
    return typeof body.code === 'string' && typeof body.error === 'string' ? { error: body.error, code: body.code, details: body.details ?? {} } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a value inside `value` sits under more than `limit` arrays and objects (walked without recursion). */
function depthExceeds(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length; depth++) {
    const next: unknown[] = [];
    // One push per value: a spread of a long array would overflow the stack it is here to spare.
    for (const item of level) if (item && typeof item === 'object') for (const value of Object.values(item)) next.push(value);
    if (next.length && depth >= limit) return true;
    level = next;
  }
  return false;
}

function base64(body: string | Uint8Array): string {
  return Buffer.from(typeof body === 'string' ? new TextEncoder().encode(body) : body).toString('base64');
}
