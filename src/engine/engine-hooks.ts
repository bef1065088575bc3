import type { Principal } from '../auth/principal.js';
import type { Operation } from '../contract/operations.js';
import type { ApiError } from '../errors/api-error.js';
import type { EngineRequest, EngineResponse, Reply } from './types.js';

/**
 * What the engine runs on each call without knowing who provides it: the composition
 * (`createSimulator`) hands in the services, the journal, the fault rules and the mounted
 * sub-apps, so the engine sits below them and imports none.
 */
export interface EngineHooks {
  /** Books what time has already decided for the caller's account (refunds, expiries) before its operation runs. */
  catchUp(account: Principal['account'], now: number): void;
  /** The fault that decides this call, if any: asked for by its Prefer header, or by a rule. `call` is lent for this call only: keep none of it. */
  faultFor(call: FaultCall): EngineFault | undefined;
  /** Writes a finished exchange to the journal (and to the client report). */
  record(request: EngineRequest, response: EngineResponse, facts: ExchangeFacts, durationMs: number): void;
  /** Sub-apps with paths of their own (the OAuth authorization server), tried before the API's routes. */
  mounts: readonly MountedApp[];
  /** What a used-up memory budget refuses: an error to throw, or undefined to go on. */
  refuseWhenFull: {
    serviceCall(method: string): ApiError | undefined;
    controlCall(operationId: string): ApiError | undefined;
  };
}

export interface FaultCall {
  operation: Operation;
  method: string;
  path: string;
  accountId: string;
  keyHint: string;
  /** The call's Prefer header, which may ask for a fault itself. */
  prefer: string | undefined;
  now: number;
}

/** An injected fault: an error answered at once, or what the app performs (a wait, a drop, a slow body). */
export interface EngineFault {
  ruleId: string;
  error?: ApiError;
  delayMs?: number;
  drop?: boolean;
  slowBody?: { totalMs: number; chunks: number };
}

/** What the journal keeps of an exchange besides its request and response. */
export interface ExchangeFacts {
  correlationId: string;
  now: number;
  keyHint?: string;
  /** The credential's id (an API key's, or an OAuth grant's), once authenticated. */
  credentialId?: string;
  operationId?: string;
  accountId?: string;
  /** The account itself, when the engine knows it (the client report then skips the lookup). */
  account?: Principal['account'];
  /** Real time when the request came (performance.now(), ms); when absent, the reader's own real clock is read. */
  realAt?: number;
  fault?: { ruleId: string };
}

export interface MountedApp {
  /** The operation id the journal shows for its calls. */
  name: string;
  handles(path: string): boolean;
  handle(method: string, path: string, query: string, request: EngineRequest, now: number): Reply;
}
