import { WebStandardStreamableHTTPServerTransport, type HandleRequestOptions, type Server } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.js';

/**
 * 2025-era Streamable HTTP sessions (`Mcp-Session-Id`, the GET stream, DELETE). A session
 * is bound to the account that opened it and authenticates nobody: every request still
 * carries its own credential, and one of another account is told the session does not exist.
 */
interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  accountId: string;
}

export class LegacySessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly newServer: () => Server,
    private readonly maxSessions: number,
  ) {}

  async handle(request: Request, principal: Principal, initialize: boolean, options: HandleRequestOptions): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = this.sessions.get(id);
      if (!session || session.accountId !== principal.account.id) return rpcError(404, -32001, 'Session not found: initialize a new session.');
      return session.transport.handleRequest(request, options);
    }
    if (!initialize) return rpcError(400, -32000, 'Bad Request: send initialize first, then the Mcp-Session-Id it answers.');
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId): void => this.remember(sessionId, { transport, accountId: principal.account.id }),
      onsessionclosed: (sessionId) => void this.sessions.delete(sessionId),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await this.newServer().connect(transport);
    return transport.handleRequest(request, options);
  }

  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((s) => s.transport.close()));
  }

  private remember(id: string, session: Session): void {
    this.sessions.set(id, session);
    if (this.sessions.size <= this.maxSessions) return;
    const oldest = this.sessions.keys().next().value as string;
    const evicted = this.sessions.get(oldest);
    this.sessions.delete(oldest);
    void evicted?.transport.close();
  }
}

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
