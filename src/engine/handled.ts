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
}

/** The engine's answer, with what an adapter may log (never the key itself). */
export interface HandledResponse extends EngineResponse {
  log: { correlationId: string; keyHint?: string; operationId?: string; errorCode?: string };
  /** What the adapter must do that the engine cannot: wait before answering, or drop the connection. */
  fault?: { ruleId: string; delayMs?: number; drop?: boolean; slowBody?: { totalMs: number; chunks: number } };
  /** Settles once the changes this answer reports are durable (a state file is kept): the answer waits for it; rejected, it must not be sent as a success. */
  durable?: Promise<void>;
}
