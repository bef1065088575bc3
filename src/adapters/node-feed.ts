import type { ServerResponse } from 'node:http';
import type { AppResponse } from '../app/fault-effects.js';
import { boundedEventStream } from './bounded-event-stream.js';

/** A comment line every so often keeps proxies and browsers from closing an idle event stream. */
const HEARTBEAT_MS = 15_000;

/**
 * An answer that does not end with its first bytes, written as the app feeds it: server-sent
 * events that go on until the client leaves or the server stops (kept alive, and cut off when
 * the client stops reading), or a slow body's pieces, which the app times.
 */
export function writeFeed(res: ServerResponse, answer: AppResponse): void {
  const feed = answer.feed!;
  res.writeHead(answer.status, answer.headers);
  const first = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  if (first.byteLength > 0) res.write(first);
  else res.flushHeaders();
  let stopped = false;
  const stopFeeding = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(heartbeat);
    stop();
  };
  const heartbeat = feed.events ? setInterval(() => out?.write(': keep-alive\n\n'), HEARTBEAT_MS) : undefined;
  heartbeat?.unref();
  // A client that stops reading an event stream is cut off, and the feed stops at once: nothing piles up for it.
  const out = feed.events ? boundedEventStream(res, () => stopFeeding()) : undefined;
  const stop = feed.open(
    (chunk) => void (out ? out.write(chunk) : res.write(chunk)),
    () => res.end(),
  );
  res.on('close', stopFeeding);
}
