import { DEMO_CLIENT_ID } from './demo-client.js';
import { OAuthError } from './oauth-errors.js';
import type { OAuthClient } from './oauth-records.js';

/**
 * Dynamic client registration (RFC 7591) for public clients: redirect URIs must be https,
 * or http on a loopback address (RFC 8252 §7.3); the only authentication is PKCE.
 * Registration is open to anyone, so the table is capped and unused clients expire.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const MAX_REDIRECT_URIS = 10;
const MAX_NAME = 200;

/** Registered clients kept at once, the demo client aside. */
export const MAX_CLIENTS = 1_000;
/** A client never used (no token issued) is forgotten after this: a sign-in takes minutes. */
export const UNUSED_CLIENT_MS = 3_600_000;
/** A client unused this long has no refresh token left alive: it is forgotten. */
export const IDLE_CLIENT_MS = 30 * 24 * 3_600_000;

/** True when the redirect URI sends the browser back to the user's own machine. */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    return LOOPBACK.has(new URL(uri).hostname);
  } catch {
    return false;
  }
}

export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || uri.length > 2000) return 'must be a URL of at most 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash) return 'must not have a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return null;
  return 'must be https, or http on a loopback address (127.0.0.1, [::1], localhost)';
}

export function registerClient(body: unknown, clientId: string, now: number): OAuthClient {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata.');
  const metadata = body as Record<string, unknown>;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list one to ten redirect URIs.');
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `${JSON.stringify(uri)} ${problem}.`);
  }
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw new OAuthError('invalid_client_metadata', 'Only public clients are supported: token_endpoint_auth_method must be "none" (PKCE protects the code).');
  const grants = metadata.grant_types ?? GRANT_TYPES;
  if (!Array.isArray(grants) || grants.some((g) => !GRANT_TYPES.includes(g))) {
    throw new OAuthError('invalid_client_metadata', `grant_types may hold only ${GRANT_TYPES.join(' and ')}.`);
  }
  const responses = metadata.response_types ?? ['code'];
  if (!Array.isArray(responses) || responses.some((r) => r !== 'code')) throw new OAuthError('invalid_client_metadata', 'response_types may hold only "code".');
  const name = metadata.client_name ?? 'Unnamed client';
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > MAX_NAME) throw new OAuthError('invalid_client_metadata', 'client_name must be text of 1 to 200 characters.');
  return { clientId, clientName: name.trim(), redirectUris: [...new Set(uris as string[])], issuedAt: now };
}

export function clientJson(client: OAuthClient): Record<string, unknown> {
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.issuedAt / 1000),
    client_name: client.clientName,
    redirect_uris: client.redirectUris,
    grant_types: GRANT_TYPES,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

/**
 * Whether a client record (one restored from a saved state, say) obeys the registration
 * rules: a client id as the server issues them, a name of 1 to 200 characters, one to ten
 * redirect URIs, each https or loopback http, without fragment (so never `javascript:`).
 * Answers what is wrong, or null when the record is sound.
 */
export function oauthClientProblem(record: unknown): string | null {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return 'a client must be an object';
  const client = record as Record<string, unknown>;
  if (typeof client.clientId !== 'string' || !(client.clientId === DEMO_CLIENT_ID || /^client_[A-Za-z0-9_-]{43}$/.test(client.clientId) || isDocumentUrl(client.clientId))) {
    return 'clientId must be "client_" and 43 base64url characters, or the URL of a client metadata document';
  }
  const name = client.clientName;
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > MAX_NAME) return `clientName must be text of 1 to ${MAX_NAME} characters`;
  const uris = client.redirectUris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) return `redirectUris must list one to ${MAX_REDIRECT_URIS} redirect URIs`;
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return `redirect URI ${JSON.stringify(String(uri).slice(0, 100))} ${problem}`;
  }
  return null;
}

/** A client named by its metadata document: an https URL (http on loopback, for local testing). */
function isDocumentUrl(clientId: string): boolean {
  return clientId.length <= 2000 && (redirectUriProblem(clientId) === null) && !clientId.includes('?');
}

/**
 * Makes room for one more client: forgets clients past their time first, then the least
 * recently registered client never used. When every client is in use, registration is
 * refused (503 temporarily_unavailable) rather than cutting off a client someone uses.
 */
export function admitClient(clients: Map<string, OAuthClient>, client: OAuthClient, now: number): void {
  expireClients(clients, now);
  if (clients.size - (clients.has(DEMO_CLIENT_ID) ? 1 : 0) >= MAX_CLIENTS) {
    let evicted = false;
    for (const [id, c] of clients) {
      if (id !== DEMO_CLIENT_ID && c.lastUsedAt === undefined) {
        clients.delete(id);
        evicted = true;
        break;
      }
    }
    if (!evicted) throw new OAuthError('temporarily_unavailable', `The server holds its maximum of ${MAX_CLIENTS} clients in use: try again later.`, 503, { 'retry-after': '3600' });
  }
  clients.set(client.clientId, client);
}

/** Forgets clients never used within an hour of registration, and clients idle for 30 days. */
export function expireClients(clients: Map<string, OAuthClient>, now: number): void {
  for (const [id, c] of clients) {
    if (id === DEMO_CLIENT_ID) continue;
    const idleSince = c.lastUsedAt ?? c.issuedAt;
    if (idleSince + (c.lastUsedAt === undefined ? UNUSED_CLIENT_MS : IDLE_CLIENT_MS) <= now) clients.delete(id);
  }
}
