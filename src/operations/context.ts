import type { Clock } from '../clock/clock.js';
import type { BuildEnvironment } from '../builds/builds-service.js';
import type { ValidatedParameters } from '../engine/request-validation.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { AddressLimiter } from '../limits/address-limiter.js';
import type { Account } from '../store/account.js';
import type { Principal } from '../auth/principal.js';
import type { AuthorizationServer } from '../oauth/authorization-server.js';
import type { Store } from '../store/store.js';
import type { Rng } from '../random/rng.js';
import type { Journal } from '../observe/journal.js';
import type { FaultRules } from '../observe/faults.js';
import type { EventStream } from '../engine/types.js';
import type { Capacity } from '../limits/capacity.js';

/** The simulator's state and services, shared by every operation. */
export interface Simulation {
  seed: string;
  version: string;
  /** The pipeline speed as configured: a preset name or a factor. */
  speedLabel: string;
  clock: Clock;
  store: Store;
  limiter: RateLimiter;
  /** Per client address: failed authentications and views of shared deliverables, what a guesser makes. */
  guessing: { failedAuth: AddressLimiter; shareView: AddressLimiter };
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
  /** The stream of correlation ids, from the seed: part of the state, so a restart repeats none. */
  correlationIds: Rng;
}

interface BaseContext<Body> {
  sim: Simulation;
  params: ValidatedParameters;
  /** The parsed JSON body, already validated against the operation's schema. */
  body: Body;
  correlationId: string;
  now: number;
}

export interface ServiceContext<Body = any> extends BaseContext<Body> {
  account: Account;
  /** Who calls: an API key, or an OAuth access token on /mcp. */
  principal: Principal;
}

export type ControlContext<Body = any> = BaseContext<Body>;

/** What an operation answers; the engine adds the common headers and serializes. */
export interface Reply {
  status: number;
  /** A JSON body, or */
  json?: unknown;
  /** a file body with its content type. */
  file?: { body: string | Uint8Array; contentType: string };
  headers?: Record<string, string>;
  /** Server-sent events that follow the body (the journal's live feed). */
  stream?: EventStream;
  /** false for a page other origins must not read (the OAuth sign-in page): no CORS headers. */
  crossOrigin?: false;
}

export type ServiceHandler = (ctx: ServiceContext) => Reply;
export type ControlHandler = (ctx: ControlContext) => Reply;
