import type { Role } from './config.js';
import { SkipSignal } from '../shared/outcomes.js';
import type { Session } from './session.js';

export interface RpcReply {
  status: number;
  headers: Record<string, string>;
  /** The JSON-RPC message answered (from JSON or from the SSE stream), if any. */
  message: any;
}

const PROTOCOL = '2025-11-25';

/**
 * A minimal MCP client over Streamable HTTP for the suite (a 2025-11-25 session): raw
 * JSON-RPC with fetch, so that every status and header the server sends is visible.
 */
export class McpSession {
  private nextId = 1;

  private constructor(
    private readonly s: Session,
    private readonly authorization: string | undefined,
    private readonly sessionId: string | undefined,
  ) {}

  /** Opens a session for a role's key; skips the check when the server has no MCP endpoint at /mcp. */
  static async open(s: Session, as: Role | null = 'readWrite'): Promise<McpSession> {
    const key = as === null ? undefined : s.keys[as];
    if (as !== null && !key) throw new SkipSignal(`no credential for the role ${as}`);
    return McpSession.openWith(s, key ? `Bearer ${key}` : undefined);
  }

  /** Opens a session with any Authorization header (an OAuth access token, a malformed key). */
  static async openWith(s: Session, authorization: string | undefined): Promise<McpSession> {
    const init = await post(s, authorization, undefined, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'content-contracts', version: '1' } } });
    if (init.status === 404) throw new SkipSignal('the server has no MCP endpoint at /mcp');
    const session = new McpSession(s, authorization, init.headers['mcp-session-id']);
    if (init.status === 200) await post(s, authorization, session.sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' });
    return Object.assign(session, { initialized: init });
  }

  initialized?: RpcReply;
  private schemas?: Map<string, any>;

  /** Each tool's input schema, from tools/list (read once). */
  async toolSchemas(): Promise<Map<string, any>> {
    if (!this.schemas) {
      const listed = await this.request('tools/list');
      this.schemas = new Map(((listed.message?.result?.tools ?? []) as Array<{ name: string; inputSchema: any }>).map((t) => [t.name, t.inputSchema]));
    }
    return this.schemas;
  }

  /** A tool's arguments: path and query values, the body's fields beside them or under `body`, as the tool's schema says. */
  async argumentsFor(tool: string, values: Record<string, unknown>, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (!body) return values;
    return (await this.toolSchemas()).get(tool)?.properties?.body ? { ...values, body } : { ...values, ...body };
  }

  request(method: string, params: unknown = {}): Promise<RpcReply> {
    return post(this.s, this.authorization, this.sessionId, { jsonrpc: '2.0', id: this.nextId++, method, params });
  }

  /**
   * A tool call. A RATE_LIMITED result the check did not provoke is waited out (a new window)
   * and the call made again, as REST calls are: every MCP message counts in the key's window.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: { provoke429?: boolean } = {}): Promise<RpcReply> {
    for (let attempt = 0; ; attempt++) {
      const reply = await this.request('tools/call', { name, arguments: args });
      const result = reply.message?.result;
      const limited = result?.isError === true && /"code":\s*"RATE_LIMITED"/.test(String(result.content?.[0]?.text ?? ''));
      if (!limited || options.provoke429 || attempt >= 2) return reply;
      await this.s.client.freshWindow();
    }
  }
}

async function post(s: Session, authorization: string | undefined, sessionId: string | undefined, body: unknown): Promise<RpcReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL };
  if (authorization) headers.authorization = authorization;
  if (sessionId) headers['mcp-session-id'] = sessionId;
  const response = await s.client.raw('/mcp', { method: 'POST', headers, body: JSON.stringify(body) }, authorization?.slice('Bearer '.length));
  const text = await response.text();
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => (out[k.toLowerCase()] = v));
  return { status: response.status, headers: out, message: parseMessage(text, out['content-type'] ?? '') };
}

/** The JSON-RPC answer of a JSON body, or the last `data:` event of an SSE one that carries an id. */
export function parseMessage(text: string, contentType: string): any {
  try {
    if (contentType.includes('text/event-stream')) {
      const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5).trim()));
      return data.reverse().find((m) => m && 'id' in m) ?? data[0];
    }
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
