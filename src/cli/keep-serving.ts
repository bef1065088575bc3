/**
 * A shared simulator must outlive any one fault: an error thrown in a timer or a callback
 * (EMFILE from a read of /proc once descriptors ran out, a bug in a rarely taken path) is
 * logged and serving goes on; the request it belonged to, if any, has already been answered
 * or cut off by its own handler. Repeats of one message are logged once a minute at most.
 */
export function faultReporter(log: (line: string) => void, now: () => number = () => performance.now()): (error: unknown) => void {
  const lastLogged = new Map<string, number>();
  const report = (error: unknown) => {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const at = now();
    const last = lastLogged.get(message);
    if (last !== undefined && at - last < 60_000) return;
    if (lastLogged.size >= 100) lastLogged.clear();
    lastLogged.set(message, at);
    const stack = error instanceof Error && error.stack ? `\n${error.stack}` : '';
    log(`content-sim: unexpected fault, serving goes on: ${message}${stack}\n`);
  };
  return report;
}

/** Installs the reporter for errors nothing caught: the process logs them and serves on. */
export function keepServingOnFaults(log: (line: string) => void): void {
  const report = faultReporter(log);
  process.on('uncaughtException', report);
  process.on('unhandledRejection', report);
}
