import { ApiError } from '../errors/api-error.js';
import type { HandledResponse } from '../engine/engine.js';

/**
 * The parts of an injected fault that only time and the connection can show, which the
 * engine describes and the app performs, once for every adapter and for MCP tool calls: a
 * late answer, a dropped connection, a body that comes in slow pieces.
 */

/** More body after the first bytes: an event stream that goes on, or a slow body's pieces. */
export interface BodyFeed {
  /** Server-sent events: kept alive and cut off when the client stops reading. */
  events: boolean;
  /** Starts feeding: `send` gets each piece, `end` ends the body; answers the function that stops it. */
  open(send: (chunk: string | Uint8Array) => void, end: () => void): () => void;
}

/** What the app answers on its plain path: the engine's response once its fault is performed. */
export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** The text body's UTF-8 bytes when made already (see EngineResponse.bodyBytes). */
  bodyBytes?: Uint8Array;
  bodyBytesOf?: string | Uint8Array;
  feed?: BodyFeed;
  /** Cut the connection without an answer. */
  drop?: boolean;
  log?: HandledResponse['log'];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What an answer becomes when the change it reports could not be made durable: the change was
 * not kept (the state is as the disk has it), so no success is sent, and the refusal says why
 * (the log keeper's 503 naming the storage step) and when to try again.
 */
function notSaved(response: HandledResponse, error: unknown): HandledResponse {
  const refusal = error instanceof ApiError ? error : new ApiError(503, 'SERVICE_UNAVAILABLE', 'The change could not be saved to the state file; it was not made.', { storage: { reason: String((error as Error)?.message ?? error) } }, { 'retry-after': '1' });
  const body = JSON.stringify({ error: refusal.message, code: refusal.code, details: refusal.details });
  // The rate-limit headers the answer carried (a refused call counted all the same).
  const limits = Object.fromEntries(Object.entries(response.headers).filter(([name]) => name.startsWith('x-ratelimit-')));
  const headers = { ...limits, ...refusal.headers, 'content-type': 'application/json', 'x-correlation-id': response.log.correlationId };
  return { status: refusal.status, headers, body, log: { ...response.log, errorCode: refusal.code } };
}

/** The response once what it reports is durable (a state file is kept), or the 503 that says it is not. */
function afterDurable(response: HandledResponse): HandledResponse | Promise<HandledResponse> {
  // An answer that comes later (a scenario loaded in slices) is the one sent, once it is durable.
  if (response.later) return response.later.then(afterDurable);
  const { durable } = response;
  if (!durable) return response;
  return durable.then(() => response, (error: unknown) => notSaved(response, error));
}

/** The response as an adapter writes it; synchronous unless the fault or the state log asks for a wait. */
export function performFault(response: HandledResponse): AppResponse | Promise<AppResponse> {
  const kept = afterDurable(response);
  return kept instanceof Promise ? kept.then(performTimedFault) : performTimedFault(kept);
}

function performTimedFault(response: HandledResponse): AppResponse | Promise<AppResponse> {
  const { fault } = response;
  if (!fault) return response.stream ? withEvents(response) : response;
  if (fault.drop) return { status: 0, headers: {}, body: '', drop: true, log: response.log };
  const shaped = fault.slowBody ? slowly(response, fault.slowBody) : response.stream ? withEvents(response) : response;
  return fault.delayMs ? sleep(fault.delayMs).then(() => shaped) : shaped;
}

/** The same fault for an MCP tool call: it answers late (a slow body as late as its last piece), or its connection is cut. */
export async function performToolFault(handled: HandledResponse): Promise<HandledResponse | 'dropped'> {
  const response = await afterDurable(handled);
  const { fault } = response;
  if (!fault) return response;
  if (fault.drop) return 'dropped';
  const wait = (fault.delayMs ?? 0) + (fault.slowBody?.totalMs ?? 0);
  if (wait > 0) await sleep(wait);
  return response;
}

function withEvents(response: HandledResponse): AppResponse {
  const stream = response.stream!;
  return { ...response, feed: { events: true, open: (send, end) => stream.open(send, end) } };
}

/** Status and headers at once, then `chunks` pieces of the body spread evenly over `totalMs`. */
function slowly(response: HandledResponse, slow: { totalMs: number; chunks: number }): AppResponse {
  const body = typeof response.body === 'string' ? new TextEncoder().encode(response.body) : response.body;
  const pieces = Math.max(1, Math.min(slow.chunks, body.byteLength));
  const size = Math.ceil(body.byteLength / pieces);
  const headers = { ...response.headers, 'content-length': String(body.byteLength) };
  const open = (send: (chunk: Uint8Array) => void, end: () => void) => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    for (let i = 0; i < pieces; i++) {
      const piece = body.subarray(i * size, (i + 1) * size);
      const last = i === pieces - 1;
      timers.push(setTimeout(() => (send(piece), last && end()), Math.round(((i + 1) * slow.totalMs) / pieces)));
    }
    return () => timers.forEach(clearTimeout);
  };
  return { status: response.status, headers, body: new Uint8Array(0), feed: { events: false, open }, log: response.log };
}
