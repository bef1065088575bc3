import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

/**
 * Cheap answers, from the parsed body, to two questions the endpoint asks of every POST before
 * the SDK sees it, where the SDK's own answers are schema parses (and its `isLegacyRequest`
 * runs the whole era classification that `createMcpHandler` then runs again). Each says only
 * what is certain and leaves the rest to the SDK.
 */

/**
 * Whether the SDK's era classification will route this message to the 2026-07-28 path (or
 * answer it with that path's own rejection) rather than to the 2025-era one: true for one
 * message (not a batch, not a posted response) that is not `initialize` and whose
 * `params._meta` carries the protocol-version claim. Such a message is never legacy, whatever
 * else it holds; false means only "ask the SDK".
 */
export function claimsModernEra(body: unknown): boolean {
  if (!isPlainObject(body) || 'result' in body || 'error' in body) return false;
  if (typeof body.method !== 'string' || body.method === 'initialize') return false;
  const params = body.params;
  if (!isPlainObject(params)) return false;
  const meta = params._meta;
  return isPlainObject(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/** False when the message cannot be an `initialize` request (its method is another); true means "ask the SDK". */
export function mayBeInitialize(message: unknown): boolean {
  return isPlainObject(message) && message.method === 'initialize';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
