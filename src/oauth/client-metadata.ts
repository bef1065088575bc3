import { OAuthError } from './oauth-errors.js';
import type { OAuthClient } from './oauth-records.js';
import { redirectUriProblem } from './registration.js';

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document), as the MCP
 * authorization spec (2025-11-25) puts them first: a client with no prior relationship names
 * itself by an https URL, and the server fetches the client's metadata from that URL. The rules
 * of the URL and the document are checked here; the fetch itself (addresses the server may
 * reach, size, time-out, no redirects) is the fetcher's, which the host supplies (`fetchDocument`).
 */
export const METADATA_DOCUMENT = {
  /** The most of a document the server reads. */
  maxBytes: 5 * 1024,
  /** The longest a fetch may take, real ms. */
  timeoutMs: 5_000,
  /** How long a document is kept when its response says nothing of caching, and at most, real ms. */
  defaultCacheMs: 5 * 60_000,
  maxCacheMs: 24 * 3_600_000,
} as const;

export interface FetchedDocument {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Fetches a document by the rules above, or throws an OAuthError saying why it would not. */
export type DocumentFetcher = (url: URL) => Promise<FetchedDocument>;

/** Whether a `client_id` names a metadata document (a URL) rather than a registered client. */
export function isMetadataDocumentId(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

/**
 * The draft's rules for the URL: https, a path, no dot segments, no fragment, no user or
 * password (and no query, which it discourages and this server refuses). Plain http only on a
 * loopback host, and only when the server was started to accept it (for local testing).
 */
export function metadataUrlProblem(clientId: string, allowLoopbackHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a URL';
  }
  if (clientId.length > 2000) return 'is longer than 2000 characters';
  const loopback = url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && allowLoopbackHttp)) {
    return allowLoopbackHttp ? 'must be https (or http on a loopback host)' : 'must be https';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash || clientId.includes('#')) return 'must not have a fragment';
  if (url.search || clientId.includes('?')) return 'must not have a query';
  const path = clientId.slice(clientId.indexOf('//') + 2).replace(/^[^/]*/, '');
  if (path === '' || path === '/') return 'must have a path';
  if (path.split('/').some((segment) => segment === '.' || segment === '..' || /^%2e%2e?$/i.test(segment) || /^\.?%2e$/i.test(segment))) return 'must not have . or .. path segments';
  // The URL must be the one the document names, byte for byte: a URL that normalises to another is refused.
  if (url.href !== clientId) return `must be written in its normal form (${url.href})`;
  return null;
}

/** The client a fetched document describes, or an OAuthError (invalid_client) saying what is wrong. */
export function clientFromDocument(clientId: string, fetched: FetchedDocument, now: number): OAuthClient {
  const refuse = (why: string) => new OAuthError('invalid_client', `The client metadata document at ${clientId} ${why}.`, 400);
  if (fetched.status !== 200) throw refuse(`answered HTTP ${fetched.status}, not 200`);
  const type = (fetched.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !type.endsWith('+json')) throw refuse(`is ${type || 'untyped'}, not application/json`);
  let document: unknown;
  try {
    document = JSON.parse(fetched.body);
  } catch {
    throw refuse('is not valid JSON');
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw refuse('is not a JSON object');
  const metadata = document as Record<string, unknown>;
  if (metadata.client_id !== clientId) throw refuse(`names client_id ${JSON.stringify(metadata.client_id)}, not its own URL`);
  if ('client_secret' in metadata || 'client_secret_expires_at' in metadata) throw refuse('holds a client secret, which a metadata document must not');
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw refuse(`asks for token_endpoint_auth_method ${JSON.stringify(method)}; this server takes public clients only ("none", with PKCE)`);
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10) throw refuse('must list one to ten redirect_uris');
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw refuse(`has redirect URI ${JSON.stringify(uri)}, which ${problem}`);
  }
  const grants = metadata.grant_types ?? ['authorization_code'];
  if (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) throw refuse('may list only authorization_code and refresh_token in grant_types');
  const name = metadata.client_name ?? new URL(clientId).host;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) throw refuse('must have a client_name of 1 to 200 characters');
  return { clientId, clientName: name.trim(), redirectUris: [...new Set(uris as string[])], issuedAt: now };
}

/** How long a response may be kept, from its Cache-Control (max-age, no-store, no-cache) or Expires. */
export function cacheLifetimeMs(headers: Record<string, string>, realNow: number): number {
  const control = (headers['cache-control'] ?? '').toLowerCase();
  if (/\b(no-store|no-cache)\b/.test(control)) return 0;
  const maxAge = /\bmax-age=(\d+)/.exec(control)?.[1];
  if (maxAge !== undefined) return Math.min(METADATA_DOCUMENT.maxCacheMs, Number(maxAge) * 1000);
  const expires = headers.expires ? Date.parse(headers.expires) : NaN;
  if (Number.isFinite(expires)) return Math.min(METADATA_DOCUMENT.maxCacheMs, Math.max(0, expires - realNow));
  return METADATA_DOCUMENT.defaultCacheMs;
}
