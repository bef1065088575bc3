import type { Principal } from '../auth/principal.js';
import type { HandledResponse, HandleOptions } from '../engine/engine.js';
import type { EngineRequest } from '../engine/types.js';
import type { ToolDefinition } from './tool-catalog.js';

/**
 * A tool call is the REST request it stands for: the arguments become the path, query,
 * headers and body; the engine's answer becomes the tool result, with `structuredContent`
 * equal to the JSON body (or, for an error, the spec's `{ error, code, details }`).
 */
type Json = Record<string, unknown>;

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

export function callTool(tool: ToolDefinition, args: Json, principal: Principal | undefined, engine: EngineCall): ToolResult {
  const request = toEngineRequest(tool, args);
  if ('problems' in request) {
    return errorResult({ error: 'The tool arguments are not valid.', code: 'VALIDATION_ERROR', details: { fields: request.problems } });
  }
  return toToolResult(engine(request, { principal }), request.url);
}

export function toEngineRequest(tool: ToolDefinition, args: Json): EngineRequest | { problems: { path: string; message: string }[] } {
  const problems: { path: string; message: string }[] = [];
  const rest: Json = { ...args };
  const values = (location: string) => tool.arguments.filter((a) => a.in === location);
  let path = tool.operation.template;
  for (const arg of values('path')) {
    const value = rest[arg.name];
    delete rest[arg.name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      problems.push({ path: arg.name, message: 'is required' });
      continue;
    }
    path = path.replace(`{${arg.wireName}}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams();
  for (const arg of values('query')) {
    const value = rest[arg.name];
    delete rest[arg.name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(arg.wireName, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const headers: Record<string, string> = {};
  for (const arg of values('header')) {
    const value = rest[arg.name];
    delete rest[arg.name];
    if (value !== undefined && value !== null) headers[arg.wireName.toLowerCase()] = String(value);
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
  const request: EngineRequest = { method: tool.operation.method, url: query.size ? `${path}?${query}` : path, headers };
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

function errorResult(json: Json): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(json) }], structuredContent: json, isError: true };
}

function base64(body: string | Uint8Array): string {
  return Buffer.from(typeof body === 'string' ? new TextEncoder().encode(body) : body).toString('base64');
}
