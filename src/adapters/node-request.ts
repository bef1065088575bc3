import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '../engine/http-body.js';
import type { EngineRequest } from '../engine/types.js';

/**
 * Turns a Node request into the engine's. The body is read only when one is announced, and
 * at most MAX_BODY_BYTES + 1 bytes are kept: enough for the engine to answer 413 without
 * holding a huge upload in memory.
 */
export async function toEngineRequest(req: IncomingMessage): Promise<EngineRequest> {
  const request: EngineRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers as EngineRequest['headers'] };
  // Node keeps only the first of repeated Authorization headers; the engine must see them all to refuse them.
  const authorizations = req.headersDistinct.authorization;
  if (authorizations && authorizations.length > 1) request.headers = { ...request.headers, authorization: authorizations.join(', ') };
  if (req.socket.remoteAddress) request.remoteAddress = req.socket.remoteAddress;
  const announced = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  if (announced && req.headers['content-length'] !== '0') request.body = await readCapped(req, MAX_BODY_BYTES + 1);
  return request;
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
