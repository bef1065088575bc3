import type { Reply } from '../engine/types.js';

/**
 * Errors in RFC 6749's shape (§5.2): `{ error, error_description }`, with the status that
 * goes with the code; `invalid_client` also challenges (§5.2: 401 with WWW-Authenticate).
 */
export class OAuthError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export function oauthErrorReply(error: OAuthError): Reply {
  const challenge: Record<string, string> = error.code === 'invalid_client' ? { 'www-authenticate': 'Basic realm="content-service"' } : {};
  return { status: error.status, json: { error: error.code, error_description: error.description }, headers: { ...NO_STORE, ...challenge, ...error.headers } };
}
