import type { Server } from 'node:http';

/**
 * A clean stop on SIGTERM, SIGINT or SIGHUP (the terminal closed): stop accepting, close idle keep-alive connections,
 * let in-flight requests finish, and force-close whatever is left (a client that never
 * finishes its headers, a slow upload, an open event stream) once the drain timeout has
 * passed. A second signal stops at once. The exit code is 0 either way.
 */
export interface ShutdownOptions {
  drainMs: number;
  /** Ends what holds connections open on purpose (MCP event streams) before draining. */
  beforeClose?: () => Promise<void>;
  log?: (line: string) => void;
  /** Runs at the first signal, before draining (readiness turns 503). */
  onStop?: () => void;
  /** Runs last, whichever way the process stops (the state log's last flush); the exit waits for its promise. */
  onExit?: () => void | Promise<void>;
}

/** Returns a stop to call from within (the launcher gone): the first signal's, and nothing once a stop is under way. */
export function stopOnSignals(server: Server, options: ShutdownOptions): (reason: string) => void {
  let stopping = false;
  const exit = () => {
    Promise.resolve()
      .then(() => options.onExit?.())
      .catch((error: Error) => options.log?.(`content-sim: ${error.message}\n`))
      .finally(() => process.exit(0));
  };
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      options.log?.(`content-sim: ${signal} again: stopping now\n`);
      server.closeAllConnections();
      exit();
      return;
    }
    stopping = true;
    options.onStop?.();
    options.log?.(`content-sim: ${signal}: draining (at most ${options.drainMs} ms; send it again to stop now)\n`);
    const forced = setTimeout(() => {
      server.closeAllConnections();
      exit();
    }, options.drainMs);
    forced.unref();
    void (options.beforeClose?.() ?? Promise.resolve()).finally(() => {
      server.close(exit);
      server.closeIdleConnections();
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('SIGHUP', stop);
  return (reason) => {
    if (stopping) return;
    options.log?.(`content-sim: ${reason}\n`);
    stop('SIGTERM');
  };
}
