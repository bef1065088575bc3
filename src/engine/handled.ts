import type { Principal } from '../auth/principal.js';
import type { EngineResponse } from './types.js';

/** What an in-process adapter may add to a request; nothing an HTTP client can set. */
export interface HandleOptions {
  /** The caller, already authenticated by the adapter (an MCP session's credential). */
  principal?: Principal;
  /** Do not count this call in the rate limits: a follow-up poll of a call already counted. */
  uncounted?: boolean;
  /** Keep this call out of the journal: a follow-up poll that would only repeat the first. */
  unjournaled?: boolean;
  /** The call's correlation id, from the caller's own stream (a scenario's), instead of the simulator's. */
  correlationId?: string;
  /** No fault rule or Prefer header applies: a scenario being loaded is never hit by the faults it is loaded beside. */
  unfaulted?: boolean;
  /** A control call made in-process by a caller `/_sim` already trusts (a scenario loaded by the CLI or by `/_sim`): no guard. */
  controlTrusted?: boolean;
  /** The principal's account is a rehearsal built aside (a scenario tried on a copy): it is not the store's, and need not be. */
  rehearsal?: boolean;
  /**
   * Reads a YAML request body (to a value, or throws an ApiError naming the line): the app
   * hands it over when a YAML body arrives, so the parser is loaded only then. Without it an
   * operation that takes YAML takes JSON only.
   */
  readYaml?: (text: string) => unknown;
}

/** The engine's answer, with what an adapter may log (never the key itself). */
export interface HandledResponse extends EngineResponse {
  log: { correlationId: string; keyHint?: string; operationId?: string; errorCode?: string };
  /** What the adapter must do that the engine cannot: wait before answering, or drop the connection. */
  fault?: { ruleId: string; delayMs?: number; drop?: boolean; slowBody?: { totalMs: number; chunks: number } };
  /** The answer itself, once the work the request started is done (a scenario loaded in slices): sent instead of this one. */
  later?: Promise<HandledResponse>;
  /** Settles once the changes this answer reports are durable (a state file is kept): the answer waits for it; rejected, it must not be sent as a success. */
  durable?: Promise<void>;
}
