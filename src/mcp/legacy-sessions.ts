import { WebStandardStreamableHTTPServerTransport, type HandleRequestOptions, type Server } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.js';
import { rpcError } from './rpc-error.js';
import { counted } from '../errors/counted.js';

/**
 * 2025-era Streamable HTTP sessions (`Mcp-Session-Id`, the GET stream, DELETE). A session
 * is bound to the account that opened it and authenticates nobody: every request still
 * carries its own credential, and one of another account is told the session does not exist.
 *
 * The table is fair: each account has its own cap, and a new session beyond it closes that
 * account's least recently used one, never another account's. When the whole table is full,
 * sessions whose credential no longer holds (a key revoked or rotated away, a grant ended, an
 * account reset) are closed first, since no request can use them again; if that frees no room,
 * a new session is refused (503) until sessions close or fall idle. A session unused for
 * `idleMs` is closed, so a client that went away does not hold its place for ever.
 */
interface Session {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  accountId: string;
  lastUsed: number;
  /** Whether the credential that opened it still holds. */
  holds: () => boolean;
}

export interface SessionLimits {
  /** Sessions kept at once, all accounts together. */
  maxSessions: number;
  /** Sessions one account keeps at once; its least recently used goes beyond it. */
  maxPerAccount: number;
  /** Real milliseconds a session may go unused before it is closed. */
  idleMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxSessions: 1000, maxPerAccount: 32, idleMs: 30 * 60_000 };

export class LegacySessions {
  /** Every session, least recently used first (a use moves it to the end). */
  private readonly sessions = new Map<string, Session>();
  /** Each account's sessions, least recently used first. */
  private readonly byAccount = new Map<string, Map<string, Session>>();
  /** Sessions being opened (their initialize is under way): they count against the whole table's cap. */
  private opening = 0;

  constructor(
    private readonly newServer: () => Server,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** `holds`: whether the principal's credential still holds (asked only when the table is full). */
  async handle(request: Request, principal: Principal, initialize: boolean, options: HandleRequestOptions, holds: () => boolean = () => true): Promise<Response> {
    this.closeIdle();
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = this.sessions.get(id);
      if (!session || session.accountId !== principal.account.id) return rpcError(404, -32001, 'Session not found: initialize a new session.');
      this.touch(session);
      return session.transport.handleRequest(request, options);
    }
    if (!initialize) return rpcError(400, -32000, 'Bad Request: send initialize first, then the Mcp-Session-Id it answers.');
    const accountId = principal.account.id;
    const own = this.byAccount.get(accountId)?.size ?? 0;
    const full = () => own < this.limits.maxPerAccount && this.sessions.size + this.opening >= this.limits.maxSessions;
    if (full()) this.closeOrphaned();
    if (full()) {
      return rpcError(503, -32000, `The simulator holds ${counted(this.limits.maxSessions, 'session')}, its most: close one (DELETE /mcp) or retry later.`, { 'retry-after': '30' });
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId): void => this.remember({ id: sessionId, transport, accountId, lastUsed: this.now(), holds }),
      onsessionclosed: (sessionId) => this.forget(sessionId),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId);
    };
    this.opening++;
    try {
      await this.newServer().connect(transport);
      return await transport.handleRequest(request, options);
    } finally {
      this.opening--;
    }
  }

  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    this.byAccount.clear();
    await Promise.all(open.map((s) => s.transport.close()));
  }

  private remember(session: Session): void {
    const own = this.byAccount.get(session.accountId) ?? new Map<string, Session>();
    this.byAccount.set(session.accountId, own);
    // Beyond its cap, an account gives up its own least recently used session.
    while (own.size >= this.limits.maxPerAccount) this.close(own.values().next().value as Session);
    own.set(session.id, session);
    this.sessions.set(session.id, session);
  }

  private touch(session: Session): void {
    session.lastUsed = this.now();
    for (const table of [this.sessions, this.byAccount.get(session.accountId)]) {
      table?.delete(session.id);
      table?.set(session.id, session);
    }
  }

  /** Sessions are in order of last use: the idle ones are at the front. */
  private closeIdle(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const session of this.sessions.values()) {
      if (session.lastUsed > cutoff) break;
      this.close(session);
    }
  }

  /** Sessions no request can use again: their credential was revoked, rotated away or reset. */
  private closeOrphaned(): void {
    for (const session of [...this.sessions.values()]) if (!session.holds()) this.close(session);
  }

  private close(session: Session): void {
    this.forget(session.id);
    void session.transport.close();
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    const own = this.byAccount.get(session.accountId);
    own?.delete(id);
    if (own?.size === 0) this.byAccount.delete(session.accountId);
  }
}

