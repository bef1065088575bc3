import type { EngineRequest } from '../engine/types.js';

/**
 * The `client_id` of an OAuth request that may name a client metadata document: a sign-in
 * link (GET /oauth/authorize), a token or a revocation request (a form). Null for any other
 * request, and for a client_id that is not a URL (a registered client needs no fetch).
 */
export function metadataClientId(request: EngineRequest): string | null {
  const { method, url } = request;
  let clientId: string | null = null;
  if (method === 'GET' && url.startsWith('/oauth/authorize?')) {
    clientId = new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('client_id');
  } else if (method === 'POST' && (url === '/oauth/token' || url === '/oauth/revoke')) {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded' || !request.body || request.body.byteLength > 16 * 1024) return null;
    clientId = new URLSearchParams(new TextDecoder().decode(request.body)).get('client_id');
  }
  return clientId !== null && /^https?:\/\//.test(clientId) ? clientId : null;
}
