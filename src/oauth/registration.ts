import { OAuthError } from './oauth-errors.js';
import type { OAuthClient } from './oauth-store.js';

/**
 * Dynamic client registration (RFC 7591) for public clients: redirect URIs must be https,
 * or http on a loopback address (RFC 8252 §7.3); the only authentication is PKCE.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

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
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10) {
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
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 200) throw new OAuthError('invalid_client_metadata', 'client_name must be text of 1 to 200 characters.');
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
