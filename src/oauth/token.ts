import { SCOPES, type Scope } from '../credentials/api-key.js';
import type { Reply } from '../engine/types.js';
import type { Store } from '../store/store.js';
import { accountNow, createGrant, grantRefusal } from './grants.js';
import { NO_STORE, OAuthError } from './oauth-errors.js';
import type { Grant, OAuthStore } from './oauth-store.js';
import { hashSecret, pkceMatches, randomSecret, VERIFIER_PATTERN } from './secrets.js';

/**
 * The token endpoint (OAuth 2.1 §3.2) and revocation (RFC 7009). Codes are single-use and
 * bound to client, redirect URI, challenge and resource; refresh tokens rotate on every use,
 * and a replayed code or refresh token revokes everything its grant issued (RFC 9700).
 */
export const ACCESS_MS = 3_600_000;
export const REFRESH_MS = 30 * 24 * 3_600_000;

export interface TokenContext {
  oauth: OAuthStore;
  accounts: Store;
  resource: string;
  now: number;
  /** Why the metadata document a URL client_id names was refused, if it was. */
  metadataRefusal?: (clientId: string) => string | undefined;
}

/** invalid_client (401), saying why when the client_id names a metadata document that was refused. */
function unknownClient(clientId: string | null, ctx: TokenContext): OAuthError {
  const refused = clientId ? ctx.metadataRefusal?.(clientId) : undefined;
  return new OAuthError('invalid_client', refused ?? 'Unknown client: send the client_id you registered, or the URL of your client metadata document.', 401);
}

export function exchangeToken(form: URLSearchParams, ctx: TokenContext): Reply {
  const grantType = form.get('grant_type');
  const clientId = form.get('client_id');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  }
  if (!clientId || !ctx.oauth.clients.has(clientId)) throw unknownClient(clientId, ctx);
  const resource = form.get('resource');
  if (resource !== null && resource !== ctx.resource) throw new OAuthError('invalid_target', `Tokens are issued only for ${ctx.resource}.`);
  ctx.oauth.prune(ctx.now);
  return grantType === 'authorization_code' ? redeemCode(form, clientId, ctx) : refresh(form, clientId, ctx);
}

function redeemCode(form: URLSearchParams, clientId: string, simulatorCtx: TokenContext): Reply {
  let ctx = simulatorCtx;
  const code = form.get('code');
  const verifier = form.get('code_verifier');
  if (!code) throw new OAuthError('invalid_request', 'code is required.');
  if (!verifier || !VERIFIER_PATTERN.test(verifier)) throw new OAuthError('invalid_request', 'code_verifier is required: 43 to 128 unreserved characters (PKCE).');
  const record = ctx.oauth.codes.get(hashSecret(code));
  if (!record) throw new OAuthError('invalid_grant', 'The code is not valid.');
  if (record.grantId !== null) {
    ctx.oauth.revokeGrant(record.grantId);
    throw new OAuthError('invalid_grant', 'The code was already used: the tokens it gave are revoked.');
  }
  // The code is looked up first; then its account's clock says whether it has expired.
  ctx = { ...ctx, now: accountNow(ctx.accounts, record.accountId, ctx.now) };
  if (record.expiresAt <= ctx.now) throw new OAuthError('invalid_grant', 'The code has expired (codes live 60 seconds).');
  if (record.clientId !== clientId) throw new OAuthError('invalid_grant', 'The code was issued to another client.');
  if (form.get('redirect_uri') !== record.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri must be the one of the authorization request.');
  if (!pkceMatches(verifier, record.challenge)) throw new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge.');
  if (record.keyId === undefined) throw new OAuthError('invalid_grant', 'The code is not valid.');
  const grant = createGrant(ctx.oauth, { accountId: record.accountId, clientId, keyId: record.keyId, scopes: record.scopes, resource: record.resource }, ctx.now);
  record.grantId = grant.id;
  const refusal = grantRefusal(grant, ctx.accounts, ctx.now);
  if (refusal) throw new OAuthError('invalid_grant', refusal);
  return issue(grant, grant.scopes, ctx);
}

function refresh(form: URLSearchParams, clientId: string, simulatorCtx: TokenContext): Reply {
  const presented = form.get('refresh_token');
  if (!presented) throw new OAuthError('invalid_request', 'refresh_token is required.');
  const record = simulatorCtx.oauth.refreshTokens.get(hashSecret(presented));
  const grant = record && simulatorCtx.oauth.grants.get(record.grantId);
  const ctx = grant ? { ...simulatorCtx, now: accountNow(simulatorCtx.accounts, grant.accountId, simulatorCtx.now) } : simulatorCtx;
  if (!record || !grant || record.expiresAt <= ctx.now) throw new OAuthError('invalid_grant', 'The refresh token is not valid.');
  const refusal = grantRefusal(grant, ctx.accounts, ctx.now);
  if (refusal) throw new OAuthError('invalid_grant', `The refresh token is not valid: ${refusal}`);
  if (grant.clientId !== clientId) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client.');
  if (record.used) {
    ctx.oauth.revokeGrant(grant.id);
    throw new OAuthError('invalid_grant', 'The refresh token was already used: every token of this grant is revoked.');
  }
  const asked = form.get('scope');
  const scopes = asked === null ? grant.scopes : (asked.split(' ').filter(Boolean) as Scope[]);
  const wider = scopes.filter((s) => !grant.scopes.includes(s) || !SCOPES.includes(s));
  if (wider.length || scopes.length === 0) throw new OAuthError('invalid_scope', `A refresh cannot widen the grant (${grant.scopes.join(' ')}).`);
  record.used = true;
  return issue(grant, scopes, ctx);
}

/** A new access token and a new refresh token for the grant; the grant and its client count as used. */
export function issue(grant: Grant, scopes: Scope[], ctx: TokenContext): Reply {
  const access = randomSecret('sim_at_');
  const refreshToken = randomSecret('sim_rt_');
  grant.lastUsedAt = ctx.now;
  grant.expiresAt = ctx.now + REFRESH_MS;
  ctx.oauth.grants.set(grant.id, grant); // most recently used: the last its account or the cap would let go
  const client = ctx.oauth.clients.get(grant.clientId);
  if (client) client.lastUsedAt = ctx.now;
  ctx.oauth.accessTokens.set(hashSecret(access), { grantId: grant.id, scopes, expiresAt: ctx.now + ACCESS_MS, revoked: false });
  ctx.oauth.refreshTokens.set(hashSecret(refreshToken), { grantId: grant.id, expiresAt: ctx.now + REFRESH_MS, used: false });
  return {
    status: 200,
    json: { access_token: access, token_type: 'Bearer', expires_in: ACCESS_MS / 1000, refresh_token: refreshToken, scope: scopes.join(' ') },
    headers: NO_STORE,
  };
}

/** RFC 7009: 200 whatever the token, so that revocation tells nothing; only the owner's revoke counts. */
export function revokeToken(form: URLSearchParams, ctx: TokenContext): Reply {
  const clientId = form.get('client_id');
  if (!clientId || !ctx.oauth.clients.has(clientId)) throw unknownClient(clientId, ctx);
  const token = form.get('token');
  if (!token) throw new OAuthError('invalid_request', 'token is required.');
  const hash = hashSecret(token);
  const access = ctx.oauth.accessTokens.get(hash);
  const refreshRecord = ctx.oauth.refreshTokens.get(hash);
  const grantId = access?.grantId ?? refreshRecord?.grantId;
  const grant = grantId ? ctx.oauth.grants.get(grantId) : undefined;
  if (grant && grant.clientId === clientId) {
    if (refreshRecord) ctx.oauth.revokeGrant(grant.id);
    else if (access) access.revoked = true;
  }
  return { status: 200, json: {}, headers: NO_STORE };
}
