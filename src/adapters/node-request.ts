import type { IncomingMessage } from 'node:http';
import { bodyLimitFor } from '../engine/http-body.js';
import type { EngineRequest } from '../engine/types.js';

/**
 * Turns a Node request into the engine's. The body is read only when one is announced, and
 * at most the path's body limit + 1 bytes are kept: enough for the engine to answer 413 without
 * holding a huge upload in memory.
 */
export function toEngineRequest(req: IncomingMessage): EngineRequest | Promise<EngineRequest> {
  const request: EngineRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers as EngineRequest['headers'] };
  // Node keeps only the first of repeated Authorization headers; the engine must see them all to refuse them.
  const authorizations = repeatedAuthorization(req.rawHeaders);
  if (authorizations) request.headers = { ...request.headers, authorization: authorizations.join(', ') };
  const { socket } = req;
  if (socket.remoteAddress) request.remoteAddress = socket.remoteAddress;
  request.connection = socket;
  const announced = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  // No body: answered without waiting a turn of the event loop.
  if (!announced || req.headers['content-length'] === '0') return request;
  return readCapped(req, bodyLimitFor(request.url) + 1).then((body) => ((request.body = body), request));
}

/** Every Authorization value when there are several, else undefined: a scan of the raw pairs, no copies. */
function repeatedAuthorization(raw: string[]): string[] | undefined {
  let values: string[] | undefined;
  let first: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length !== 13 || (name !== 'authorization' && name.toLowerCase() !== 'authorization')) continue;
    if (first === undefined) first = raw[i + 1] as string;
    else (values ??= [first]).push(raw[i + 1] as string);
  }
  return values;
}

function readCapped(req: IncomingMessage, cap: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size >= cap) return; // keep draining so the client can read our 413
      const room = cap - size;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.length;
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}
