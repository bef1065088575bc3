import type { Server } from '@modelcontextprotocol/server';

/**
 * Idle MCP servers for stateless (2026-07-28) exchanges. The SDK serves each such request on
 * a server connected to a transport that lives for that one exchange, and refuses an instance
 * that is still connected; once the exchange has closed, the instance may be connected again
 * (`Server.connect` after close). So a server is built only when none is idle, and comes back
 * here when its exchange closes, instead of every request building one with its handlers.
 *
 * Nothing of a caller stays on an instance: each request's principal travels in its own
 * `authInfo`, and the SDK binds the protocol version and the client's envelope per exchange.
 */
export class ServerPool {
  private readonly idle: Server[] = [];

  /** `maxIdle` bounds what a burst leaves behind: beyond it a closed server is left to the collector. */
  constructor(
    private readonly build: () => Server,
    private readonly maxIdle = 32,
  ) {}

  /** An idle server, or a new one; it returns by itself when the exchange it serves closes. */
  take(): Server {
    const reused = this.idle.pop();
    if (reused) return reused;
    const server = this.build();
    // Called by the SDK once per exchange, after the transport is let go and before anything else runs.
    server.onclose = () => {
      if (this.idle.length < this.maxIdle && server.transport === undefined && !this.idle.includes(server)) this.idle.push(server);
    };
    return server;
  }

  /** Servers waiting for an exchange (for tests). */
  get idleCount(): number {
    return this.idle.length;
  }
}
