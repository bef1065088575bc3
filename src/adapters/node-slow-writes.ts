import type { ServerResponse } from 'node:http';
import type { EventStream } from '../engine/types.js';
import { boundedEventStream } from './bounded-event-stream.js';

/** A comment line every so often keeps proxies and browsers from closing an idle event stream. */
const HEARTBEAT_MS = 15_000;

/**
 * Responses that do not end with their body, which the engine describes and only an adapter
 * can perform: server-sent events that go on until the client leaves or the server stops,
 * and a body dribbled out in pieces (an injected slow body).
 */
export function writeEventStream(res: ServerResponse, status: number, headers: Record<string, string>, body: Uint8Array, stream: EventStream): void {
  res.writeHead(status, headers);
  res.write(body);
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  let stopped = false;
  const stopFeeding = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(heartbeat);
    stop();
  };
  // A client that stops reading is cut off, and the feed stops at once: nothing piles up for it.
  const out = boundedEventStream(res, () => stopFeeding());
  const stop = stream.open(
    (chunk) => void out.write(chunk),
    () => res.end(),
  );
  res.on('close', stopFeeding);
}

/** Status and headers at once, then `chunks` pieces of the body spread evenly over `totalMs`. */
export function writeSlowBody(res: ServerResponse, status: number, headers: Record<string, string>, body: Uint8Array, slow: { totalMs: number; chunks: number }): void {
  res.writeHead(status, headers);
  res.flushHeaders();
  const pieces = Math.max(1, Math.min(slow.chunks, body.byteLength));
  const size = Math.ceil(body.byteLength / pieces);
  const timers: NodeJS.Timeout[] = [];
  for (let i = 0; i < pieces; i++) {
    const piece = body.subarray(i * size, (i + 1) * size);
    const last = i === pieces - 1;
    timers.push(setTimeout(() => (last ? res.end(piece) : res.write(piece)), Math.round(((i + 1) * slow.totalMs) / pieces)));
  }
  res.on('close', () => timers.forEach(clearTimeout));
}
