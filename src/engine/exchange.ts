import type { Principal } from '../auth/principal.js';
import { toHttpDate } from '../clock/clock.js';
import type { RateLimitState } from '../limits/rate-limiter.js';
import { answerHeaders } from './answer-headers.js';
import type { EngineFault } from './engine-hooks.js';
import type { HandledResponse } from './handled.js';
import type { Reply } from './types.js';

/** What one request carries through the steps, so even an error response gets its headers. */
export interface Exchange {
  correlationId: string;
  now: number;
  rate: Readonly<RateLimitState> | null;
  keyHint?: string;
  credentialId?: string;
  operationId?: string;
  /** The control API is never CORS-open. */
  private?: boolean;
  accountId?: string;
  /** The caller's account, once authenticated: the client report judges it without looking it up. */
  account?: Principal['account'];
  /** Real time when the request came (performance.now(), ms): the client report's second clock. */
  realAt: number;
  /** A fault rule (or Prefer header) that decided this call. */
  fault?: EngineFault;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A reply made an answer: the rate-limit and correlation headers every answer has, its body encoded once, what the journal shows of it. */
export function finishAnswer(reply: Reply, exchange: Exchange, corsOpen: boolean): HandledResponse {
  const cors = corsOpen && reply.crossOrigin !== false && !exchange.private;
  const headers = answerHeaders(toHttpDate(exchange.now), exchange.rate, exchange.correlationId, cors);
  if (reply.headers) Object.assign(headers, reply.headers);
  let body: string | Uint8Array = '';
  let bodyBytes: Uint8Array | undefined;
  if (reply.file) {
    headers['content-type'] = reply.file.contentType;
    body = reply.file.body;
    bodyBytes = reply.file.bytes;
  } else if (reply.json !== undefined) {
    headers['content-type'] = JSON_TYPE;
    body = JSON.stringify(reply.json);
  }
  const { fault } = exchange;
  const response: HandledResponse = {
    status: reply.status,
    headers,
    body,
    bodyBytes,
    bodyBytesOf: bodyBytes && body,
    log: {
      correlationId: exchange.correlationId,
      keyHint: exchange.keyHint,
      operationId: exchange.operationId,
      errorCode: reply.status >= 400 ? ((reply.json as { code?: string } | undefined)?.code ?? undefined) : undefined,
    },
  };
  // Added only when there is one: most answers have neither, and no empty object is spread for them.
  if (reply.stream) response.stream = reply.stream;
  if (fault && (fault.delayMs !== undefined || fault.drop || fault.slowBody)) response.fault = { ruleId: fault.ruleId, delayMs: fault.delayMs, drop: fault.drop, slowBody: fault.slowBody };
  return response;
}
