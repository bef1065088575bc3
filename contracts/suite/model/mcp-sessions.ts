import { ContractFailure, SkipSignal } from '../../shared/outcomes.js';
import { RULES } from '../../shared/response-rules.js';
import { headersOf } from '../../shared/server-time.js';
import type { Session } from '../session.js';
import { parseRpc, PROTOCOL, type RpcReply } from './tool-answers.js';

/** The model phase's MCP sessions: one per key, opened on first use, ended before the key is revoked. */
export class ModelMcpSessions {
  private readonly sessions = new Map<string, { id: string | undefined }>();

  constructor(private readonly s: Session) {}

  /** The key's session, opened (initialize, then notifications/initialized) if it has none; a refused credential's answer instead. */
  async open(key: string): Promise<{ id: string | undefined } | { refused: RpcReply }> {
    const open = this.sessions.get(key);
    if (open) return open;
    const init = await this.rpc(key, undefined, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'content-contracts-model', version: '1' } } });
    if (init.status === 404) throw new SkipSignal('the server has no MCP endpoint at /mcp');
    if (init.status === 401 || init.status === 403) return { refused: init };
    if (init.status !== 200) throw new ContractFailure(`MCP: an API key opens a session at /mcp\n    initialize: HTTP ${init.status} ${JSON.stringify(init.message ?? null).slice(0, 200)}`);
    const session = { id: init.headers['mcp-session-id'] };
    await this.rpc(key, session.id, { jsonrpc: '2.0', method: 'notifications/initialized' });
    this.sessions.set(key, session);
    return session;
  }

  /** Forgets the key's session without ending it (the server refused the credential: the session is over). */
  drop(key: string): void {
    this.sessions.delete(key);
  }

  /** Ends the key's session (DELETE /mcp): a server shared by many runs keeps none of them. */
  async close(key: string): Promise<void> {
    const session = this.sessions.get(key);
    this.sessions.delete(key);
    if (!session?.id) return;
    const headers = { authorization: `Bearer ${key}`, 'mcp-session-id': session.id, 'mcp-protocol-version': PROTOCOL };
    await this.s.client.raw('/mcp', { method: 'DELETE', headers }).then((r) => r.arrayBuffer(), () => undefined);
  }

  async rpc(key: string, session: string | undefined, body: unknown): Promise<RpcReply> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL, authorization: `Bearer ${key}` };
    if (session) headers['mcp-session-id'] = session;
    let response: Response;
    let text: string;
    try {
      response = await this.s.client.raw('/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
      text = await response.text();
    } catch (e) {
      if (e instanceof SkipSignal) throw e;
      throw new ContractFailure(`${RULES.answers}\n    POST /mcp: ${String((e as Error).cause ?? (e as Error).message)}`);
    }
    const out = headersOf(response);
    return { status: response.status, headers: out, message: parseRpc(text, out['content-type'] ?? '') };
  }
}
