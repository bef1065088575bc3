import type { EngineState } from '../engine/handler-types.js';
import type { BuildEnvironment } from '../builds/builds-service.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import type { Journal } from '../observe/journal.js';
import type { FaultRules } from '../observe/faults.js';
import type { Capacity } from '../limits/capacity.js';
import type { Quotas } from '../limits/quotas.js';

/**
 * The simulator's internal state and services, shared by every operation: what the engine and
 * the handlers work on. Not the public API (that is `Simulator`): outside code asks the
 * `Simulator` (readiness, journal feeds, snapshots) rather than changing fields here. The
 * clock, store, limiters and correlation ids are the engine's share (`EngineState`).
 */
export interface SimulatorState extends EngineState {
  seed: string;
  version: string;
  /** The pipeline speed as configured: a preset name or a factor. */
  speedLabel: string;
  builds: BuildEnvironment;
  /** The OAuth 2.1 authorization server of the MCP server. */
  oauth: AuthorizationServer;
  /** Every request and its response, redacted, in a bounded ring. */
  journal: Journal;
  /** Misbehaviour on purpose, for testing clients' retries and timeouts. */
  faults: FaultRules;
  /** The state right after seeding, as JSON: what `POST /_sim/reset` goes back to. */
  initialState: string;
  /** False once the server is stopping: /readyz then answers 503 so no new traffic is routed here. */
  ready: boolean;
  /** Whether the memory budget allows storing more (set by the CLI's gauge; always room in-process). */
  capacity: Capacity;
  /** What one account may store: past a quota, the write is 409 CONFLICT naming it. */
  quotas: Quotas;
}
