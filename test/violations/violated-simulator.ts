import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressApp } from '../../src/adapters/express.js';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator.js';
import type { Violation } from './catalog.js';
import { inProcessFetch } from './in-process-fetch.js';
import type { Handle } from './tamper.js';

export interface TestTarget {
  simulator: Simulator;
  handle: Handle;
  /** A fetch that calls `handle` in this process. */
  fetch: ReturnType<typeof inProcessFetch>;
}

/** A simulator, broken by one violation when given one. Faults are expected, so they are not logged. */
export function simulatorUnderTest(violation?: Violation, options: SimulatorOptions = {}): TestTarget {
  const simulator = createSimulator({ onFault: () => {}, ...options, ...violation?.options });
  const handle = violation?.wrap ? violation.wrap((request) => simulator.handle(request), simulator) : (request: Parameters<Handle>[0]) => simulator.handle(request);
  return { simulator, handle, fetch: inProcessFetch(handle) };
}

/** Serves a target's (possibly broken) handle over the express adapter on a loopback port. */
export async function serveOnLoopback(target: TestTarget): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const proxy = { ...target.simulator, handle: target.handle } as Simulator;
  const server: Server = createServer(createExpressApp(proxy));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections(); // fetch keeps connections alive
      }),
  };
}
