import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Keeps a node:http server's open connections within bounds, so that slow or idle clients
 * can never use up the process's file descriptors: at most `maxConnections` in all and
 * `maxPerAddress` from one client address. A connection past a bound first pushes out the
 * oldest one that is not being answered (idle keep-alive, headers or body still arriving):
 * a flood of slow clients gives way to the next real request. Only when every connection is
 * being answered is the newcomer refused, with 503 SERVICE_UNAVAILABLE in the spec's shape.
 */
export interface ConnectionLimits {
  maxConnections: number;
  maxPerAddress: number;
}

interface Tracked {
  socket: Socket;
  address: string;
  /** The last request on this connection, and its answer (read when a bound is reached, never on the request path). */
  request?: IncomingMessage;
  response?: ServerResponse;
  /** Whether an earlier request on it was answered: a client that works, idle between requests. */
  served: boolean;
}

export interface ConnectionGuard {
  /** Open connections now, in all. */
  readonly open: number;
  /** Connections pushed out or refused since the start. */
  readonly shed: number;
}

export function guardConnections(server: Server, limits: ConnectionLimits, log?: (line: string) => void): ConnectionGuard {
  const all = new Map<Socket, Tracked>();
  const byAddress = new Map<string, Set<Tracked>>();
  let shed = 0;
  let lastWarned = -Infinity;
  const warn = (line: string) => {
    // Once in ten seconds at most: a flood must not turn into a flood of log lines.
    const now = performance.now();
    if (now - lastWarned < 10_000) return;
    lastWarned = now;
    log?.(line);
  };

  const forget = (tracked: Tracked) => {
    if (all.get(tracked.socket) !== tracked) return;
    all.delete(tracked.socket);
    const mine = byAddress.get(tracked.address);
    mine?.delete(tracked);
    if (mine?.size === 0) byAddress.delete(tracked.address);
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const mine = byAddress.get(address);
    if (mine && mine.size >= limits.maxPerAddress && !pushOut(mine.values())) {
      return refuse(socket, `${address} already holds ${limits.maxPerAddress} connections, each being answered`, { limit: 'connectionsPerAddress', maxPerAddress: limits.maxPerAddress });
    }
    if (all.size >= limits.maxConnections && !pushOut(all.values())) {
      return refuse(socket, `${limits.maxConnections} connections are open, each being answered`, { limit: 'connections', maxConnections: limits.maxConnections });
    }
    const tracked: Tracked = { socket, address, served: false };
    all.set(socket, tracked);
    let set = byAddress.get(address);
    if (!set) byAddress.set(address, (set = new Set()));
    set.add(tracked);
    socket.once('close', () => forget(tracked));
  });

  // Two fields set a request: no listener nor closure is added on the request path.
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const tracked = all.get(request.socket);
    if (!tracked) return;
    if (tracked.response?.writableFinished) tracked.served = true;
    tracked.request = request;
    tracked.response = response;
  });

  /**
   * Ends the oldest connection that is not being answered, preferring one that never had an
   * answer (a client stuck in its headers or body) to an idle keep-alive one; false when
   * every connection is being answered.
   */
  function pushOut(candidates: Iterable<Tracked>): boolean {
    let idle: Tracked | undefined;
    for (const tracked of candidates) {
      const answered = tracked.response?.writableFinished === true;
      // A request whose body has all arrived and whose answer is not finished is being answered (or streamed to): it stays.
      if (tracked.request?.complete && !answered) continue;
      if (!tracked.served && !answered) return end(tracked);
      idle ??= tracked;
    }
    return idle ? end(idle) : false;
  }

  function end(tracked: Tracked): true {
    forget(tracked);
    tracked.socket.destroy();
    shed++;
    warn(`content-sim: connection limits reached: slow or idle connections are being closed (see --max-connections)\n`);
    return true;
  }

  function refuse(socket: Socket, why: string, details: Record<string, unknown>): void {
    shed++;
    warn(`content-sim: refusing connections: ${why}\n`);
    const body = JSON.stringify({ error: `The simulator is at its connection limit (${why}); retry shortly.`, code: 'SERVICE_UNAVAILABLE', details });
    socket.on('error', () => {});
    socket.end(
      `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // A client that never reads its refusal must not hold the descriptor.
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  return {
    get open() {
      return all.size;
    },
    get shed() {
      return shed;
    },
  };
}
