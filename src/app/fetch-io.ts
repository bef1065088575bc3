import { bodyLimitFor } from '../engine/http-body.js';
import type { EngineRequest } from '../engine/types.js';
import type { AppResponse } from './fault-effects.js';

/** Statuses whose Fetch response must have no body. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A Fetch request as the engine's plain request: path and query, lower-case headers, the body's
 * bytes (at most the path's limit + 1, enough for a 413), and the client's address when the
 * server gave it (without one, the request counts as made in-process).
 */
export async function fromFetchRequest(request: Request, remoteAddress?: string): Promise<EngineRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  // Headers already joins repeated values with ", ": the engine sees every Authorization sent.
  request.headers.forEach((value, name) => void (headers[name] = value));
  const plain: EngineRequest = { method: request.method, url: url.pathname + url.search, headers };
  if (remoteAddress) plain.remoteAddress = remoteAddress;
  if (request.body) {
    const body = await readCapped(request.body, bodyLimitFor(plain.url) + 1);
    if (body.byteLength > 0) plain.body = body;
  }
  return plain;
}

async function readCapped(stream: ReadableStream<Uint8Array>, cap: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const kept = read.value.subarray(0, cap - size);
    chunks.push(kept);
    size += kept.byteLength;
    if (size >= cap) {
      await reader.cancel(); // the rest is not needed to answer 413
      break;
    }
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** The app's plain answer as a Fetch response; a dropped connection is a network error. */
export function toFetchResponse(answer: AppResponse): Response {
  if (answer.drop) return Response.error();
  const init = { status: answer.status, headers: answer.headers };
  if (NO_BODY.has(answer.status)) return new Response(null, init);
  if (!answer.feed) return new Response(typeof answer.body === 'string' ? answer.body : answer.body.slice(), init);
  return new Response(feedStream(answer), init);
}

/** The first bytes, then whatever the feed sends until it ends or the reader cancels. */
function feedStream(answer: AppResponse): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const bytes = (chunk: string | Uint8Array) => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const first = bytes(answer.body);
      if (first.byteLength > 0) controller.enqueue(first);
      let ended = false;
      stop = answer.feed!.open(
        (chunk) => void (ended || controller.enqueue(bytes(chunk))),
        () => void (ended || ((ended = true), controller.close())),
      );
    },
    cancel: () => stop(),
  });
}
