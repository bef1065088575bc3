import { assertStillHolds, requireScope } from '../auth/authenticate.js';
import { ConnectionKeys } from './connection-keys.js';
import type { Principal } from '../auth/principal.js';
import type { Operation } from '../contract/operations.js';
import type { ControlHandlerOf, EngineState, ServiceHandlerOf } from './handler-types.js';
import type { Reply } from './types.js';
import { ApiError } from '../errors/api-error.js';
import { guardControl } from './control-guard.js';
import type { EngineFault, EngineHooks, FaultCall } from './engine-hooks.js';
import { guessingAddress, originRelative } from './request-facts.js';
import { preflightResponse } from './cors.js';
import { finishAnswer, type Exchange } from './exchange.js';
import { readBody, readParameters } from './request-input.js';
import type { RequestValidator } from './request-validation.js';
import { Router, methodNotAllowed } from './router.js';
import { assertHandlersMatch } from './handler-checks.js';
import type { EngineRequest } from './types.js';
import type { HandledResponse, HandleOptions } from './handled.js';
import { counted } from '../errors/counted.js';

export type { HandledResponse, HandleOptions } from './handled.js';

export interface EngineOptions<State extends EngineState = EngineState> {
  sim: State;
  /** What the engine runs on each call: catch-up, faults, the journal, mounted sub-apps, capacity guards. */
  hooks: EngineHooks;
  serviceOperations: Operation[];
  controlOperations: Operation[];
  validator: RequestValidator;
  serviceHandlers: Readonly<Record<string, ServiceHandlerOf<State>>>;
  /** Service operations open to anyone (`security: []`, no scope), e.g. a shared deliverable. */
  publicHandlers: Readonly<Record<string, ControlHandlerOf<State>>>;
  controlHandlers: Readonly<Record<string, ControlHandlerOf<State>>>;
  /** Serve the `/_sim` control API (default true). */
  control?: boolean;
  /** Answer CORS preflights and allow any origin (default true), for browser front ends. */
  cors?: boolean;
  /** Required in X-Control-Token on `/_sim` when set; without it `/_sim` answers loopback clients only. */
  controlToken?: string;
  /** Told of every unexpected fault; the client gets a 500 without details. */
  onFault?: (error: unknown, correlationId: string) => void;
}

/**
 * One framework-free request handler for every adapter: route, authenticate, rate-limit,
 * check scope, validate, run the operation; every response gets the rate-limit headers
 * and a correlation id, every error the spec's `{ error, code, details }` body.
 */
export class Engine<State extends EngineState = EngineState> {
  private readonly serviceRouter: Router;
  private readonly controlRouter: Router;
  private readonly connectionKeys = new ConnectionKeys(() => this.options.sim.store);
  private readonly faultCall: FaultCall = { operation: undefined as unknown as Operation, method: '', path: '', accountId: '', keyHint: '', prefer: undefined, now: 0 };

  constructor(private readonly options: EngineOptions<State>) {
    this.serviceRouter = new Router(options.serviceOperations);
    this.controlRouter = new Router(options.controlOperations);
    assertHandlersMatch(options);
  }

  handle(request: EngineRequest, options: HandleOptions = {}): HandledResponse {
    // Every field in the literal: one shape for every exchange, none added one by one later.
    const started = performance.now();
    const exchange: Exchange = {
      correlationId: options.correlationId ?? this.options.sim.correlationIds.hex(24, 'corr_'),
      now: this.options.sim.clock.now(),
      rate: null,
      keyHint: undefined,
      credentialId: undefined,
      operationId: undefined,
      private: false,
      accountId: undefined,
      account: undefined,
      realAt: started,
      fault: undefined,
    };
    let reply: Reply;
    try {
      reply = this.dispatch(request, exchange, options);
    } catch (error) {
      reply = this.errorReply(error, exchange);
    }
    if (reply.later) return this.deferred(reply.later, request, exchange, options, started);
    const response = finishAnswer(reply, exchange, this.options.cors !== false);
    if (!options.unjournaled) this.options.hooks.record(request, response, exchange, performance.now() - started);
    return response;
  }

  /** An answer that comes once the work it started is done: finished, and journaled, then. */
  private deferred(later: Promise<Reply>, request: EngineRequest, exchange: Exchange, options: HandleOptions, started: number): HandledResponse {
    const settled = later.catch((error: unknown) => this.errorReply(error, exchange)).then((reply) => {
      const response = finishAnswer(reply, exchange, this.options.cors !== false);
      if (!options.unjournaled) this.options.hooks.record(request, response, exchange, performance.now() - started);
      return response;
    });
    return { ...finishAnswer({ status: 202, json: {} }, exchange, this.options.cors !== false), later: settled };
  }

  private dispatch(request: EngineRequest, exchange: Exchange, options: HandleOptions): Reply {
    const method = request.method.toUpperCase();
    const url = originRelative(request.url);
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const query = queryStart === -1 ? '' : url.slice(queryStart + 1);

    const controlPath = path === '/_sim' || path.startsWith('/_sim/');
    const healthPath = path === '/healthz' || path === '/readyz';
    if (controlPath || healthPath) exchange.private = true;
    if (method === 'OPTIONS' && this.options.cors !== false) {
      if (controlPath) throw new ApiError(403, 'FORBIDDEN', 'The control API answers no cross-origin request.', {});
      return preflightResponse(request.headers['access-control-request-headers']);
    }
    for (const mount of this.options.hooks.mounts) {
      if (!mount.handles(path)) continue;
      exchange.operationId = mount.name;
      return mount.handle(method, path, query, request, exchange.now);
    }
    // Probes for orchestrators: no key, no rate limit, no guard, served with --no-control too.
    if (healthPath) return this.control(method, path, query, request, exchange);
    if (controlPath) {
      if (this.options.control === false) throw new ApiError(404, 'NOT_FOUND', 'The control API is switched off (--no-control).');
      if (!options.controlTrusted) guardControl(request, method, this.options.controlToken, new URL(this.options.sim.oauth.issuer).hostname);
      return this.control(method, path, query, request, exchange, options);
    }
    return this.service(method, path, query, request, exchange, options);
  }

  private service(method: string, path: string, query: string, request: EngineRequest, exchange: Exchange, options: HandleOptions): Reply {
    const { sim } = this.options;
    // 1. Route first only to know the rate-limit class; 404 and 405 wait until the caller is known.
    const route = this.serviceRouter.route(method, path);
    const routeClass = route.kind === 'match' ? route.match.operation.rateLimitClass : 'default';
    exchange.rate = sim.limiter.uncounted(routeClass, exchange.now);
    if (!path.startsWith('/api/')) throw new ApiError(404, 'NOT_FOUND', `Nothing at ${path}: the API lives under /api/v1.`);
    if (route.kind === 'match' && route.match.operation.scope === null) return this.public(route.match.operation, route.match.pathParams, query, request, exchange);
    if (route.kind === 'method-not-allowed' && route.public) throw methodNotAllowed(method, path, route.allow);

    // 2. Authenticate the key (or take the caller an in-process adapter already authenticated).
    // An in-process caller was authenticated when its request began: revoked or reset since, it is refused now.
    if (options.principal && !options.rehearsal) assertStillHolds(sim.store, options.principal, exchange.now);
    const caller = options.principal ?? this.authenticateKey(request, exchange);
    exchange.keyHint = caller.hint;
    exchange.credentialId = caller.credentialId;
    // Known from here on: the account's own journal shows its 429s, 404s and 405s too.
    exchange.accountId = caller.account.id;
    exchange.account = caller.account;
    // From here on it is the account's time (its own clock, if it has one): windows, expiry, stages, timestamps.
    // Fault rules are the control API's: they keep the simulator's time.
    const simulatorNow = exchange.now;
    exchange.now = caller.account.now(simulatorNow);
    if (route.kind === 'match') exchange.operationId = route.match.operation.operationId;
    if (caller.key) caller.key.lastUsedAt = exchange.now;

    // 3. Count the request against the credential's and the user's buckets.
    const decision = options.uncounted ? null : sim.limiter.take(caller.credentialId, caller.account.id, routeClass, exchange.now, caller.account.clock !== null);
    if (decision) exchange.rate = decision.state;
    if (decision && !decision.allowed) {
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `Rate limit of ${counted(decision.state.limit, 'request')} a minute exceeded; retry in ${decision.retryAfterSeconds} s.`,
        { bucket: decision.state.bucket, limit: decision.state.limit, retryAfterSeconds: decision.retryAfterSeconds },
        { 'retry-after': String(decision.retryAfterSeconds) },
      );
    }

    // 4. Resolve the operation.
    if (route.kind === 'not-found') throw new ApiError(404, 'NOT_FOUND', `No operation at ${method} ${path}.`);
    if (route.kind === 'method-not-allowed') {
      throw methodNotAllowed(method, path, route.allow);
    }
    const { operation, pathParams } = route.match;

    // 5. A fault asked for by the call's Prefer header, or by a rule under /_sim/faults.
    const { hooks } = this.options;
    let fault: EngineFault | undefined;
    if (!options.unfaulted) {
      // One call object, filled for each request (the hook keeps none of it).
      const call = this.faultCall;
      call.operation = operation;
      call.method = method;
      call.path = path;
      call.accountId = caller.account.id;
      call.keyHint = caller.hint;
      call.prefer = request.headers.prefer;
      call.now = simulatorNow;
      fault = hooks.faultFor(call);
    }
    if (fault) {
      exchange.fault = fault;
      if (fault.error) throw fault.error;
    }

    // 5b. A full memory budget refuses what would store more, before anything is stored.
    const full = hooks.refuseWhenFull.serviceCall(method);
    if (full) throw full;

    // 6. Check the scope.
    if (operation.scope) requireScope(caller, operation.scope);

    // 7. Book what time has already decided (refunds of failed builds), and let go of what it expired.
    hooks.catchUp(caller.account, exchange.now);

    // 8. Validate the input, then run the operation.
    const params = readParameters(this.options.validator, operation, pathParams, query, request);
    const body = readBody(this.options.validator, operation, request);
    const handler = this.options.serviceHandlers[operation.operationId] as ServiceHandlerOf<State>;
    return handler({ sim, account: caller.account, principal: caller, params, body, correlationId: exchange.correlationId, now: exchange.now });
  }

  /**
   * A key from the Authorization header. Failed attempts count per client address, and an
   * address that used up its minute gets 429 before its key is even looked at, so guessing
   * learns nothing faster than the limit allows.
   */
  private authenticateKey(request: EngineRequest, exchange: Exchange): Principal {
    const { failedAuth } = this.options.sim.guessing;
    const address = guessingAddress(request);
    if (address !== undefined) failedAuth.check(address, exchange.now);
    try {
      return this.connectionKeys.authenticate(request.headers.authorization, request.connection);
    } catch (error) {
      if (address !== undefined && error instanceof ApiError && error.status === 401) exchange.rate = failedAuth.count(address, exchange.now);
      throw error;
    }
  }

  /** An operation anyone may call: no key, so it counts only in its client address's bucket. */
  private public(operation: Operation, pathParams: Record<string, string>, query: string, request: EngineRequest, exchange: Exchange): Reply {
    exchange.operationId = operation.operationId;
    const address = guessingAddress(request);
    if (address !== undefined) {
      const { shareView } = this.options.sim.guessing;
      exchange.rate = shareView.check(address, exchange.now);
      exchange.rate = shareView.count(address, exchange.now);
    }
    const params = readParameters(this.options.validator, operation, pathParams, query, request);
    const body = readBody(this.options.validator, operation, request);
    const handler = this.options.publicHandlers[operation.operationId] as ControlHandlerOf<State>;
    return handler({ sim: this.options.sim, params, body, correlationId: exchange.correlationId, now: exchange.now });
  }

  private control(method: string, path: string, query: string, request: EngineRequest, exchange: Exchange, options: HandleOptions = {}): Reply {
    const route = this.controlRouter.route(method, path);
    if (route.kind === 'not-found') throw new ApiError(404, 'NOT_FOUND', `No control operation at ${method} ${path}.`);
    if (route.kind === 'method-not-allowed') {
      throw methodNotAllowed(method, path, route.allow);
    }
    const { operation, pathParams } = route.match;
    exchange.operationId = operation.operationId;
    const full = this.options.hooks.refuseWhenFull.controlCall(operation.operationId);
    if (full) throw full;
    const params = readParameters(this.options.validator, operation, pathParams, query, request);
    const body = readBody(this.options.validator, operation, request, options.readYaml);
    const handler = this.options.controlHandlers[operation.operationId] as ControlHandlerOf<State>;
    return handler({ sim: this.options.sim, params, body, correlationId: exchange.correlationId, now: exchange.now });
  }

  private errorReply(error: unknown, exchange: Exchange): Reply {
    if (error instanceof ApiError) {
      return { status: error.status, json: { error: error.message, code: error.code, details: error.details }, headers: error.headers };
    }
    this.options.onFault?.(error, exchange.correlationId);
    return {
      status: 500,
      json: { error: 'The simulator hit an unexpected fault.', code: 'INTERNAL_ERROR', details: { correlationId: exchange.correlationId } },
    };
  }
}
