import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../app/create-app.js';
import { readWhole, serveFetch, WHOLE_BODY_BYTES } from './fetch-bridge.js';

/**
 * /mcp from node:http. A POST with a small announced body is read whole and offered to the
 * endpoint's fast path first, from its text and node's own header object: no Fetch
 * `Request` or `Response` is built for a plain stateless tool call. Anything the fast path
 * declines (it has counted nothing then) goes through the Fetch bridge, body and all.
 */
export async function serveMcp(req: IncomingMessage, res: ServerResponse, app: App): Promise<number> {
  if (req.method !== 'POST' || !(Number(req.headers['content-length']) <= WHOLE_BODY_BYTES)) return serveFetch(req, res, app.fetch);
  const whole = await readWhole(req);
  const { headers } = req;
  const remoteAddress = req.socket.remoteAddress;
  // A repeated header is joined (or dropped) differently by node and by Fetch: such a request takes the Fetch path.
  const pending = distinctHeaders(req) ? app.fastMcp({ header: (name) => headers[name] as string | undefined, bodyText: whole.toString('utf8'), ...(remoteAddress ? { remoteAddress } : {}) }) : undefined;
  if (!pending) return serveFetch(req, res, app.fetch, whole);
  const answer = await pending;
  // A dropped tool call ends its exchange as a network failure: no answer at all.
  if (answer === 'dropped') {
    req.socket.destroy();
    return 0;
  }
  if (res.destroyed) return answer.status;
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
  return answer.status;
}

/** Whether every header came once: node's header object then has one name per raw pair. */
function distinctHeaders(req: IncomingMessage): boolean {
  let names = 0;
  for (const _ in req.headers) names++;
  return names * 2 === req.rawHeaders.length;
}
