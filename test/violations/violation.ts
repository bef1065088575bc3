import type { Simulator, SimulatorOptions } from '../../src/simulator.js';
import { authenticate } from '../../src/auth/authenticate.js';
import { editJson, is, jsonOf, type Handle } from './tamper.js';

/**
 * A deliberate contract violation: a small switch in a test-only simulator. The contract
 * suite must fail against it, and one of its failures must name `rule`.
 */
export interface Violation {
  id: string;
  /** What is broken, in a few words. */
  description: string;
  /** A piece of the broken rule's text, which some failure must contain. */
  rule: string;
  /**
   * The areas of the contract the fault is in (contracts/suite/areas.ts): the strict run that
   * must catch it runs their checks only, as one would after changing that part of a server.
   * Given here where it differs from its part of the catalogue (catalog.ts); undefined: the
   * whole suite.
   */
  areas?: readonly string[] | undefined;
  /** The spec states the rule: the documented level catches it too, naming `rule` (true) or the spec's own wording of it (a string). */
  documented?: boolean | string;
  options?: SimulatorOptions;
  wrap?: (handle: Handle, sim: Simulator) => Handle;
  /** Breaks the MCP endpoint (a Fetch handler) instead of, or as well as, the REST engine. */
  wrapMcp?: (fetch: (request: Request) => Promise<Response>) => (request: Request) => Promise<Response>;
}

export const PATHS = {
  balance: /^\/api\/v1\/tokens\/balance$/,
  builds: /^\/api\/v1\/builds$/,
  build: /^\/api\/v1\/builds\/[^/]+$/,
  targets: /^\/api\/v1\/targets$/,
  transactions: /^\/api\/v1\/tokens\/transactions$/,
  download: /^\/api\/v1\/deliverables\/[^/]+\/download$/,
  deliverable: /^\/api\/v1\/deliverables\/[^/]+$/,
} as const;

export const isReplay = (req: Parameters<Handle>[0], res: ReturnType<Handle>) => is(req, 'POST', PATHS.builds) && res.status < 300 && jsonOf(res).idempotent === true;

export const errorCode = (res: ReturnType<Handle>): string | undefined => (res.status >= 400 && String(res.body).startsWith('{') ? jsonOf(res).code : undefined);

/** Rewrites the status a build retrieval reports. */
export const buildStatus = (h: Handle, map: (status: string, build: any, now: number) => string, sim: Simulator): Handle =>
  editJson(h, (req, res) => is(req, 'GET', PATHS.build) && res.status === 200, (json, req) => {
    json.build.status = map(json.build.status, json.build, callerNow(sim, req));
  });

/** The time of the caller's account (its own clock, if it has one), else the simulator's. */
export function callerNow(sim: Simulator, req: Parameters<Handle>[0]): number {
  const simulatorNow = sim.clock.now();
  try {
    return authenticate(sim.internal.store, req.headers.authorization).account.now(simulatorNow);
  } catch {
    return simulatorNow;
  }
}
