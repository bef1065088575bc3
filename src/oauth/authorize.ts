import { authenticate } from '../auth/authenticate.js';
import { SCOPES, type Scope } from '../credentials/api-key.js';
import { ApiError } from '../errors/api-error.js';
import type { AddressLimiter } from '../limits/address-limiter.js';
import type { Reply } from '../engine/types.js';
import type { Store } from '../store/store.js';
import { authorizePage, errorPage, pageHeaders } from './authorize-page.js';
import type { OAuthStore, PendingAuthorization } from './oauth-store.js';
import { isLoopbackRedirect } from './registration.js';
import { CHALLENGE_PATTERN, hashSecret, randomSecret } from './secrets.js';
import { constantTimeEqual } from '../credentials/constant-time.js';

/**
 * The authorization endpoint (OAuth 2.1 §4.1): the request is checked, shown on the
 * sign-in page, and answered by a redirect carrying `code`, `state` and `iss` (RFC 9207),
 * or an error. Until the client and its redirect URI are known to match, nothing is
 * redirected anywhere: a 400 page says what is wrong. An invalid request is redirected
 * (with its error) only to a loopback redirect URI, on the user's own machine; anyone may
 * register an https one, and an automatic redirect there would make the simulator an open
 * redirector (RFC 9700 §4.11.1), so those get the error on a page instead.
 */
export interface AuthorizeContext {
  oauth: OAuthStore;
  accounts: Store;
  issuer: string;
  resource: string;
  now: number;
  /** Failed sign-ins count per client address, with the API's failed authentications. */
  failedAuth?: AddressLimiter;
  /** The address a guessing limit counts (none in process, nor on loopback). */
  address?: string;
  /** Why the metadata document a URL client_id names was refused, if it was. */
  metadataRefusal?: (clientId: string) => string | undefined;
}

const PENDING_MS = 10 * 60_000;
/** `state` is the client's; a sign-in kept waiting need not hold more than this of it. */
const MAX_STATE = 1_024;
export const CODE_MS = 60_000;
const CSRF_COOKIE = 'content_sim_csrf';

export function showAuthorization(query: URLSearchParams, ctx: AuthorizeContext): Reply {
  const clientId = single(query, 'client_id');
  const client = clientId ? ctx.oauth.clients.get(clientId) : undefined;
  if (!client) {
    const refused = clientId ? ctx.metadataRefusal?.(clientId) : undefined;
    if (refused) return page(400, errorPage('Sign-in refused (invalid_client)', refused));
    return page(400, errorPage('Unknown client', 'This sign-in link names no registered client: ask the application to register first.'));
  }
  const redirectUri = single(query, 'redirect_uri');
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    return page(400, errorPage('Unregistered redirect URI', 'The redirect URI of this sign-in link is not one the client registered, so the simulator will not send you there.'));
  }
  const state = single(query, 'state');
  const fail = (error: string, description: string) =>
    isLoopbackRedirect(redirectUri)
      ? redirect(redirectUri, { error, error_description: description, state, iss: ctx.issuer })
      : page(400, errorPage(`Sign-in refused (${error})`, `${description} The simulator sends you back to the application only from a valid request.`));
  if (state !== null && state.length > MAX_STATE) return fail('invalid_request', `state must be at most ${MAX_STATE} characters.`);
  if (query.get('response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const challenge = single(query, 'code_challenge');
  const method = single(query, 'code_challenge_method');
  if (!challenge || method !== 'S256') return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256 (plain is not accepted).');
  if (!CHALLENGE_PATTERN.test(challenge)) return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).');
  const requested = (query.get('scope') ?? SCOPES.join(' ')).split(' ').filter(Boolean);
  const unknown = requested.filter((s) => !SCOPES.includes(s as Scope));
  if (unknown.length || requested.length === 0) return fail('invalid_scope', `Unknown scope ${unknown.join(' ') || '(none)'}; the scopes are ${SCOPES.join(' and ')}.`);
  const resource = single(query, 'resource') ?? ctx.resource;
  if (resource !== ctx.resource) return fail('invalid_target', `Tokens are issued only for ${ctx.resource}.`);

  ctx.oauth.prune(ctx.now);
  const pending: PendingAuthorization = {
    id: randomSecret(''),
    csrf: randomSecret(''),
    clientId: client.clientId,
    redirectUri,
    state,
    challenge,
    scopes: [...new Set(requested)] as Scope[],
    resource,
    expiresAt: ctx.now + PENDING_MS,
  };
  // Bounded (OAUTH_CAPS): a flood of sign-in links cannot grow memory; the oldest unanswered one goes first.
  ctx.oauth.pending.set(pending.id, pending);
  return page(200, authorizePage(client, pending), { 'set-cookie': `${CSRF_COOKIE}=${pending.csrf}; Path=/oauth; HttpOnly; SameSite=Strict` }, redirectUri);
}

export function decideAuthorization(form: URLSearchParams, cookieHeader: string | undefined, ctx: AuthorizeContext): Reply {
  const pending = ctx.oauth.pending.get(form.get('request_id') ?? '');
  if (!pending || pending.expiresAt <= ctx.now) return page(400, errorPage('Sign-in expired', 'This sign-in request is unknown or has expired: start again from the application.'));
  const cookie = readCookie(cookieHeader, CSRF_COOKIE);
  const sent = form.get('csrf_token') ?? '';
  if (!cookie || !constantTimeEqual(cookie, pending.csrf) || !constantTimeEqual(sent, pending.csrf)) {
    return page(403, errorPage('Request refused', 'The form was not sent from the sign-in page it belongs to (CSRF check failed).'));
  }
  // An unused client expires after an hour, and may do so while its sign-in page is open.
  const client = ctx.oauth.clients.get(pending.clientId);
  if (!client) return page(400, errorPage('Sign-in expired', 'The application that asked is no longer registered: start again from the application.'));
  if (form.get('decision') !== 'approve') {
    ctx.oauth.pending.delete(pending.id);
    return redirect(pending.redirectUri, { error: 'access_denied', error_description: 'The user denied the request.', state: pending.state, iss: ctx.issuer });
  }
  let caller;
  try {
    // A key typed here is a guess like any other: the address's failed authentications apply.
    if (ctx.address !== undefined) ctx.failedAuth?.check(ctx.address, ctx.now);
    caller = authenticate(ctx.accounts, `Bearer ${(form.get('api_key') ?? '').trim()}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 429) return page(429, authorizePage(client, pending, error.message), { 'retry-after': error.headers['retry-after'] ?? '60' }, pending.redirectUri);
    if (ctx.address !== undefined) ctx.failedAuth?.count(ctx.address, ctx.now);
    return page(401, authorizePage(client, pending, `That key did not sign you in: ${error.message}`), {}, pending.redirectUri);
  }
  const scopes = pending.scopes.filter((s) => caller.key.scopes.includes(s));
  if (scopes.length === 0) return page(403, authorizePage(client, pending, `This key holds none of the scopes asked for (${pending.scopes.join(' ')}).`), {}, pending.redirectUri);
  ctx.oauth.pending.delete(pending.id);
  const code = randomSecret('sim_ac_');
  ctx.oauth.codes.set(hashSecret(code), {
    clientId: pending.clientId,
    redirectUri: pending.redirectUri,
    challenge: pending.challenge,
    resource: pending.resource,
    scopes,
    accountId: caller.account.id,
    keyId: caller.key.id,
    expiresAt: caller.account.now(ctx.now) + CODE_MS,
    grantId: null,
  });
  return redirect(pending.redirectUri, { code, state: pending.state, iss: ctx.issuer });
}

/** A parameter given once; a repeated one counts as absent (RFC 6749 §3.1). */
function single(query: URLSearchParams, name: string): string | null {
  const values = query.getAll(name);
  return values.length === 1 ? (values[0] as string) : null;
}

function redirect(uri: string, params: Record<string, string | null>): Reply {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return { status: 302, headers: { location: url.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }, crossOrigin: false };
}

function page(status: number, html: string, headers: Record<string, string> = {}, redirectUri?: string): Reply {
  const origin = redirectUri ? new URL(redirectUri).origin : undefined;
  return { status, file: { body: html, contentType: 'text/html; charset=utf-8' }, headers: { ...pageHeaders(origin), ...headers }, crossOrigin: false };
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}
