import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { boundedEventStream } from './bounded-event-stream.js';

/**
 * Serves a Fetch-style handler (`Request` → `Response`) from node:http: a large request body
 * streams in, an event stream streams out as it is produced (any other answer is written
 * whole), and a client that goes away aborts a streamed exchange.
 */
export async function serveFetch(
  req: IncomingMessage,
  res: ServerResponse,
  handler: (request: Request, client: { remoteAddress?: string }) => Promise<Response>,
  /** The body, when the caller has read it already (whole). */
  body?: Buffer,
): Promise<number> {
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
  // A small announced body (an MCP message) is read whole: a Buffer is far cheaper to hand a Request than a stream.
  const whole = body ?? (hasBody && Number(req.headers['content-length']) <= WHOLE_BODY_BYTES ? await readWhole(req) : undefined);
  const request = new Request(url, {
    method: req.method,
    headers,
    // A stream (a GET's event stream, a streamed body) ends when its client goes away. A message
    // read whole is one exchange, answered or cut off by the bounded stream below, and its
    // Request goes without a signal: undici ties a given signal to it with listeners and a finalizer.
    ...(whole ? { body: whole } : { signal: abortOnClose(res), ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}) }),
  } as RequestInit);
  // The client's address goes along: /mcp counts failed authentications per address as the service API does.
  const response = await handler(request, req.socket.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {});
  // A network error (a dropped connection): the client gets no answer at all.
  if (response.type === 'error') {
    req.socket.destroy();
    return 0;
  }
  const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (!streamed || !response.body) {
    // Any other answer goes out whole, head and body in one write: a write per piece costs a system call each.
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
    return response.status;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  // The head goes out now, not with the first event: a client waits for it before it sends
  // anything else (an MCP session's GET stream may stay silent until its first keep-alive).
  res.flushHeaders();
  // An event stream (an MCP session's GET stream, a tool call's progress) is cut off, with a
  // last event, when its client stops reading; the source is then cancelled, which frees it.
  const events = boundedEventStream(res, () => {});
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break;
      if (!events.write(chunk)) break;
    }
  } catch {
    // The client went away mid-stream: nothing left to tell it.
  }
  if (!res.writableEnded) res.end();
  return response.status;
}

/** Bodies up to this size are read before the handler runs; longer ones stream to it. */
export const WHOLE_BODY_BYTES = 64 * 1024;

export function readWhole(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => reject(new Error('The client went away before its request body ended.')));
  });
}

/** A signal that aborts when the client goes away before the answer has ended. */
function abortOnClose(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => res.writableFinished || controller.abort());
  return controller.signal;
}
