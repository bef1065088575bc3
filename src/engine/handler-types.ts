import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock/clock.js';
import type { AddressLimiter } from '../limits/address-limiter.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Rng } from '../random/rng.js';
import type { Account } from '../store/account.js';
import type { Store } from '../store/store.js';
import type { ValidatedParameters } from './request-validation.js';
import type { Reply } from './types.js';

/**
 * What the engine itself reads of the state it runs on. The handlers get the whole state (the
 * composition's, a wider type), so the engine knows nothing of the services in it.
 */
export interface EngineState {
  clock: Clock;
  store: Store;
  limiter: RateLimiter;
  /** Per client address: failed authentications and views of shared deliverables, what a guesser makes. */
  guessing: { failedAuth: AddressLimiter; shareView: AddressLimiter };
  /** The stream of correlation ids. */
  correlationIds: Rng;
  /** The OAuth issuer: its host is one the control API answers on. */
  oauth: { readonly issuer: string };
}

/** What every handler is given: the state, the validated parameters and body, the call's id and instant. */
export interface HandlerContext<State, Body = any> {
  sim: State;
  params: ValidatedParameters;
  /** The parsed JSON body, already validated against the operation's schema (its bytes, for an operation that reads its body in slices). */
  body: Body;
  correlationId: string;
  now: number;
}

/** A service operation's context: the caller is authenticated. */
export interface ServiceHandlerContext<State, Body = any> extends HandlerContext<State, Body> {
  account: Account;
  /** Who calls: an API key, or an OAuth access token on /mcp. */
  principal: Principal;
}

export type ServiceHandlerOf<State> = (ctx: ServiceHandlerContext<State>) => Reply;
export type ControlHandlerOf<State> = (ctx: HandlerContext<State>) => Reply;
