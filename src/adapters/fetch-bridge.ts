import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { boundedEventStream } from './bounded-event-stream.js';

/**
 * Serves a Fetch-style handler (`Request` → `Response`) from node:http: the request body
 * streams in, the response body streams out as it is produced (SSE included), and a client
 * that goes away aborts the request.
 */
export async function serveFetch(req: IncomingMessage, res: ServerResponse, handler: (request: Request) => Promise<Response>): Promise<number> {
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    // `Host: x@y` parses as credentials, which a Fetch Request refuses to carry.
    if (url.username || url.password) throw new TypeError('credentials in Host');
  } catch {
    res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ error: 'The Host header is not valid.', code: 'VALIDATION_ERROR', details: {} }));
    return 400;
  }
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
  const response = await handler(request);
  // A network error (a dropped connection): the client gets no answer at all.
  if (response.type === 'error') {
    req.socket.destroy();
    return 0;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return response.status;
  }
  // An event stream (an MCP session's GET stream, a tool call's progress) is cut off, with a
  // last event, when its client stops reading; the source is then cancelled, which frees it.
  const events = (response.headers.get('content-type') ?? '').startsWith('text/event-stream') ? boundedEventStream(res, () => {}) : undefined;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break;
      if (!events) res.write(chunk);
      else if (!events.write(chunk)) break;
    }
  } catch {
    // The client went away mid-stream: nothing left to tell it.
  }
  if (!res.writableEnded) res.end();
  return response.status;
}
