import { authenticate } from '../auth/authenticate.js';
import { SCOPES, type Scope } from '../credentials/api-key.js';
import type { CredentialVerifier, Principal } from '../auth/principal.js';
import { ApiError } from '../errors/api-error.js';
import { MAX_OAUTH_BODY_BYTES } from '../engine/http-body.js';
import { guessingAddress } from '../engine/request-facts.js';
import type { EngineRequest } from '../engine/types.js';
import type { AddressLimiter } from '../limits/address-limiter.js';
import { WindowLimiter } from '../limits/window-limiter.js';
import type { Reply } from '../engine/types.js';
import type { Store } from '../store/store.js';
import { decideAuthorization, showAuthorization, type AuthorizeContext } from './authorize.js';
import { DEMO_CLIENT_ID, demoClient } from './demo-client.js';
import { accountNow, createGrant, grantJson, grantRefusal, liveGrants, revokeAccountGrant } from './grants.js';
import { OAuthError, oauthErrorReply } from './oauth-errors.js';
import { OAuthStore } from './oauth-store.js';
import { admitClient, clientJson, registerClient } from './registration.js';
import { ClientMetadataDocuments } from './client-metadata-documents.js';
import { hashSecret, randomSecret } from './secrets.js';
import { exchangeToken, issue, revokeToken } from './token.js';

/**
 * The simulator's own OAuth 2.1 authorization server, for the MCP server at `/mcp`:
 * metadata (RFC 8414), protected resource metadata (RFC 9728), dynamic registration
 * (RFC 7591), the code flow with PKCE S256 only, refresh-token rotation, revocation
 * (RFC 7009). It issues the credentials /mcp accepts (see `accessTokenVerifier`) and
 * nothing else depends on its internals. Everything expires on the virtual clock.
 */
export { DEMO_CLIENT_ID, DEMO_REDIRECT_URIS } from './demo-client.js';

const FORM = 'application/x-www-form-urlencoded';

/** Registrations a client address may make in a minute. */
export const REGISTRATIONS_PER_ADDRESS = 20;
/** Token-endpoint calls a client address may make in a minute, whatever client they name. */
export const TOKEN_CALLS_PER_ADDRESS = 120;
/** Token-endpoint calls a registered client may make in a minute from one address. */
export const TOKEN_CALLS_PER_CLIENT = 60;

export interface AuthorizationServerOptions {
  publicUrl?: string;
  now: number;
  /** The service API's failed-authentication limit, which keys typed on the sign-in page count in too. */
  failedAuth?: AddressLimiter;
  /** Real time, ms: what caching of client metadata documents goes by. */
  realNow?: () => number;
}

export class AuthorizationServer {
  readonly store: OAuthStore;
  /** Clients named by a metadata document URL; on once the host supplies a fetcher. */
  readonly metadataDocuments: ClientMetadataDocuments;
  private base: string;
  private readonly registrations = new WindowLimiter(REGISTRATIONS_PER_ADDRESS);
  /**
   * The token endpoint counts per client address, and per registered client and address:
   * never under a name the caller makes up (an unknown client_id makes no entry), and a
   * client's minute cannot be used up by junk naming it from another address.
   */
  private readonly tokenCallsByAddress = new WindowLimiter(TOKEN_CALLS_PER_ADDRESS);
  private readonly tokenCallsByClient = new WindowLimiter(TOKEN_CALLS_PER_CLIENT);

  constructor(
    private readonly accounts: Store,
    private readonly options: AuthorizationServerOptions,
  ) {
    this.store = new OAuthStore(accounts.changes);
    this.base = trimSlash(options.publicUrl ?? 'http://localhost');
    this.store.clients.set(DEMO_CLIENT_ID, demoClient(options.now));
    this.metadataDocuments = new ClientMetadataDocuments(this.store, options.realNow ?? (() => performance.timeOrigin + performance.now()));
    this.store.accountNow = (accountId, simulatorNow) => accountNow(accounts, accountId, simulatorNow);
  }

  /** The address clients reach: the public URL when configured, else the server's listening address. */
  get issuer(): string {
    return this.base;
  }

  /** Told by the server once it listens; a configured public URL wins. */
  setListeningUrl(url: string): void {
    if (!this.options.publicUrl) this.base = trimSlash(url);
  }

  get resource(): string {
    return `${this.base}/mcp`;
  }

  get resourceMetadataUrl(): string {
    return `${this.base}/.well-known/oauth-protected-resource/mcp`;
  }

  static handles(path: string): boolean {
    return path.startsWith('/oauth/') || path.startsWith('/.well-known/oauth-');
  }

  handle(method: string, path: string, query: string, request: EngineRequest, now: number): Reply {
    try {
      if ((request.body?.byteLength ?? 0) > MAX_OAUTH_BODY_BYTES) throw new OAuthError('invalid_request', `The body exceeds ${MAX_OAUTH_BODY_BYTES} bytes.`, 413);
      return this.route(method, path, new URLSearchParams(query), request, now);
    } catch (error) {
      if (error instanceof OAuthError) return oauthErrorReply(error);
      throw error;
    }
  }

  private route(method: string, path: string, query: URLSearchParams, request: EngineRequest, now: number): Reply {
    const allow = (...methods: string[]) => {
      if (!methods.includes(method)) throw new OAuthError('invalid_request', `${method} is not allowed here.`, 405, { allow: methods.join(', ') });
    };
    const authorizeContext: AuthorizeContext = {
      oauth: this.store,
      accounts: this.accounts,
      issuer: this.issuer,
      resource: this.resource,
      now,
      failedAuth: this.options.failedAuth,
      address: guessingAddress(request),
      metadataRefusal: (clientId) => this.metadataDocuments.refusal(clientId),
    };
    const address = request.remoteAddress ?? 'in-process';
    const tokenContext = { oauth: this.store, accounts: this.accounts, resource: this.resource, now, metadataRefusal: (clientId: string) => this.metadataDocuments.refusal(clientId) };
    switch (path) {
      case '/.well-known/oauth-authorization-server':
        allow('GET');
        return { status: 200, json: this.metadata() };
      case '/.well-known/oauth-protected-resource':
      case '/.well-known/oauth-protected-resource/mcp':
        allow('GET');
        return { status: 200, json: this.resourceMetadata() };
      case '/oauth/register': {
        allow('POST');
        this.slowDown(this.registrations, address, now);
        const client = registerClient(readJson(request), randomSecret('client_'), now);
        admitClient(this.store.clients, client, now);
        return { status: 201, json: clientJson(client), headers: { 'cache-control': 'no-store' } };
      }
      case '/oauth/authorize':
        allow('GET', 'POST');
        return method === 'GET' ? showAuthorization(query, authorizeContext) : decideAuthorization(readForm(request), request.headers.cookie, authorizeContext);
      case '/oauth/token': {
        allow('POST');
        this.slowDown(this.tokenCallsByAddress, address, now);
        const form = readForm(request);
        const clientId = form.get('client_id');
        if (clientId !== null && this.store.clients.has(clientId)) this.slowDown(this.tokenCallsByClient, `${clientId}\n${address}`, now);
        return exchangeToken(form, tokenContext);
      }
      case '/oauth/revoke':
        allow('POST');
        this.slowDown(this.tokenCallsByAddress, address, now);
        return revokeToken(readForm(request), tokenContext);
      default:
        throw new OAuthError('invalid_request', `Nothing at ${path}.`, 404);
    }
  }

  metadata(): Record<string, unknown> {
    return {
      issuer: this.issuer,
      authorization_endpoint: `${this.base}/oauth/authorize`,
      token_endpoint: `${this.base}/oauth/token`,
      registration_endpoint: `${this.base}/oauth/register`,
      revocation_endpoint: `${this.base}/oauth/revoke`,
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: this.metadataDocuments.enabled,
    };
  }

  resourceMetadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Content Generation Service MCP server (simulator)',
    };
  }

  /** /mcp's verifier for the access tokens issued here: RFC 8707 audience, expiry, revocation. */
  readonly accessTokenVerifier: CredentialVerifier = (bearer, simulatorNow) => {
    if (!bearer.startsWith('sim_at_')) return null;
    return this.verifyAccessToken(hashSecret(bearer), `sim_at_…${bearer.slice(-4)}`, simulatorNow);
  };

  /** An access token by its digest; the principal it proves asks the same again when its operation runs. */
  private verifyAccessToken(digest: string, hint: string, simulatorNow: number): Principal | { refused: string } {
    const token = this.store.accessTokens.get(digest);
    const grant = token && this.store.grants.get(token.grantId);
    if (!token || !grant) return { refused: 'The access token is not recognised.' };
    // The token is looked up first; then its account's clock says whether it has expired.
    const account = this.accounts.account(grant.accountId);
    if (!account) return { refused: 'The access token is not recognised.' };
    const now = account.now(simulatorNow);
    if (token.expiresAt <= now) return { refused: 'The access token has expired: refresh it.' };
    if (token.revoked || grant.revoked) return { refused: 'The access token has been revoked.' };
    const refusal = grantRefusal(grant, this.accounts, now);
    if (refusal) return { refused: `The access token has been revoked. ${refusal}` };
    if (grant.resource !== this.resource) return { refused: `The access token was issued for ${grant.resource}, not ${this.resource}.` };
    grant.lastUsedAt = now;
    const revoked = (later: number) => {
      const again = this.verifyAccessToken(digest, hint, later);
      return 'refused' in again ? again.refused : undefined;
    };
    return { account, credentialId: grant.id, scopes: token.scopes, hint, kind: 'oauth_access_token', revoked };
  }

  /** The CI shortcut behind `POST /_sim/oauth/tokens`: tokens for a key's account, no browser. */
  mint(input: { apiKey: string; scopes?: Scope[]; clientId?: string; resource?: string }, simulatorNow: number): Reply {
    const caller = authenticate(this.accounts, `Bearer ${input.apiKey}`);
    // Tokens of an account with its own clock live by that clock; the prune goes by the simulator's (and each account's).
    const now = caller.account.now(simulatorNow);
    const clientId = input.clientId ?? DEMO_CLIENT_ID;
    if (!this.store.clients.has(clientId)) throw new ApiError(404, 'NOT_FOUND', `No OAuth client ${clientId}.`, { clientId });
    const scopes = (input.scopes ?? caller.key.scopes).filter((s) => caller.key.scopes.includes(s));
    if (scopes.length === 0) throw new ApiError(403, 'SCOPE_REQUIRED', 'The key holds none of the scopes asked for.', { grantedScopes: caller.key.scopes });
    this.store.prune(simulatorNow);
    const grant = createGrant(this.store, { accountId: caller.account.id, clientId, keyId: caller.key.id, scopes, resource: input.resource ?? this.resource }, now);
    const reply = issue(grant, scopes, { oauth: this.store, accounts: this.accounts, resource: this.resource, now });
    return { ...reply, status: 201, json: { ...(reply.json as object), client_id: clientId, resource: grant.resource } };
  }

  /** `listOAuthGrants`: the account's live grants, each with its client and scopes. */
  listGrants(accountId: string, now: number) {
    return liveGrants(this.store, this.accounts, accountId, now).map((grant) => grantJson(grant, this.store));
  }

  /** `revokeOAuthGrant`: the grant's access and refresh tokens stop working at once. */
  revokeGrant(accountId: string, grantId: string, now: number) {
    return grantJson(revokeAccountGrant(this.store, this.accounts, accountId, grantId, now), this.store);
  }

  private slowDown(limiter: WindowLimiter, key: string, now: number): void {
    const { allowed, retryAfterSeconds } = limiter.take(key, now);
    if (!allowed) throw new OAuthError('slow_down', `Too many requests: retry in ${retryAfterSeconds} s.`, 429, { 'retry-after': String(retryAfterSeconds) });
  }
}

function readForm(request: EngineRequest): URLSearchParams {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== FORM) throw new OAuthError('invalid_request', `Send the parameters as ${FORM}.`);
  return new URLSearchParams(new TextDecoder().decode(request.body ?? new Uint8Array()));
}

function readJson(request: EngineRequest): unknown {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new OAuthError('invalid_client_metadata', 'Send the client metadata as application/json.');
  try {
    return JSON.parse(new TextDecoder().decode(request.body ?? new Uint8Array()));
  } catch {
    throw new OAuthError('invalid_client_metadata', 'The body is not valid JSON.');
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
