import { authenticate } from '../auth/authenticate.js';
import { SCOPES, type Scope } from '../auth/api-key.js';
import type { CredentialVerifier } from '../auth/principal.js';
import { ApiError } from '../engine/api-error.js';
import type { EngineRequest } from '../engine/types.js';
import type { Reply } from '../operations/context.js';
import type { Store } from '../store/store.js';
import { decideAuthorization, showAuthorization, type AuthorizeContext } from './authorize.js';
import { OAuthError, oauthErrorReply } from './oauth-errors.js';
import { OAuthStore, type Grant } from './oauth-store.js';
import { clientJson, registerClient } from './registration.js';
import { hashSecret, randomSecret } from './secrets.js';
import { exchangeToken, issue, revokeToken } from './token.js';
import { WindowLimiter } from './window-limiter.js';

/**
 * The simulator's own OAuth 2.1 authorization server, for the MCP server at `/mcp`:
 * metadata (RFC 8414), protected resource metadata (RFC 9728), dynamic registration
 * (RFC 7591), the code flow with PKCE S256 only, refresh-token rotation, revocation
 * (RFC 7009). It issues the credentials /mcp accepts (see `accessTokenVerifier`) and
 * nothing else depends on its internals. Everything expires on the virtual clock.
 */
export const DEMO_CLIENT_ID = 'content-sim-demo';
export const DEMO_REDIRECT_URIS = ['http://127.0.0.1:8976/callback', 'http://localhost:8976/callback'];

const FORM = 'application/x-www-form-urlencoded';

export class AuthorizationServer {
  readonly store = new OAuthStore();
  private base: string;
  private readonly registrations = new WindowLimiter(20);
  private readonly tokenCalls = new WindowLimiter(60);

  constructor(
    private readonly accounts: Store,
    private readonly options: { publicUrl?: string; now: number },
  ) {
    this.base = trimSlash(options.publicUrl ?? 'http://localhost');
    this.store.clients.set(DEMO_CLIENT_ID, { clientId: DEMO_CLIENT_ID, clientName: 'Content simulator demo client', redirectUris: DEMO_REDIRECT_URIS, issuedAt: options.now });
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
    const authorizeContext: AuthorizeContext = { oauth: this.store, accounts: this.accounts, issuer: this.issuer, resource: this.resource, now };
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
        this.slowDown(this.registrations, request.remoteAddress ?? 'local', now);
        const client = registerClient(readJson(request), randomSecret('client_'), now);
        this.store.clients.set(client.clientId, client);
        return { status: 201, json: clientJson(client), headers: { 'cache-control': 'no-store' } };
      }
      case '/oauth/authorize':
        allow('GET', 'POST');
        return method === 'GET' ? showAuthorization(query, authorizeContext) : decideAuthorization(readForm(request), request.headers.cookie, authorizeContext);
      case '/oauth/token': {
        allow('POST');
        const form = readForm(request);
        this.slowDown(this.tokenCalls, form.get('client_id') ?? request.remoteAddress ?? 'local', now);
        return exchangeToken(form, { oauth: this.store, resource: this.resource, now });
      }
      case '/oauth/revoke':
        allow('POST');
        return revokeToken(readForm(request), { oauth: this.store, resource: this.resource, now });
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
      client_id_metadata_document_supported: false,
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
  readonly accessTokenVerifier: CredentialVerifier = (bearer, now) => {
    if (!bearer.startsWith('sim_at_')) return null;
    const token = this.store.accessTokens.get(hashSecret(bearer));
    const grant = token && this.store.grants.get(token.grantId);
    if (!token || !grant) return { refused: 'The access token is not recognised.' };
    if (token.expiresAt <= now) return { refused: 'The access token has expired: refresh it.' };
    if (token.revoked || grant.revoked) return { refused: 'The access token has been revoked.' };
    if (grant.resource !== this.resource) return { refused: `The access token was issued for ${grant.resource}, not ${this.resource}.` };
    const account = this.accounts.account(grant.accountId);
    if (!account) return { refused: 'The access token is not recognised.' };
    return { account, credentialId: grant.id, scopes: token.scopes, hint: `sim_at_…${bearer.slice(-4)}`, kind: 'oauth_access_token' };
  };

  /** The CI shortcut behind `POST /_sim/oauth/tokens`: tokens for a key's account, no browser. */
  mint(input: { apiKey: string; scopes?: Scope[]; clientId?: string; resource?: string }, now: number): Reply {
    const caller = authenticate(this.accounts, `Bearer ${input.apiKey}`);
    const clientId = input.clientId ?? DEMO_CLIENT_ID;
    if (!this.store.clients.has(clientId)) throw new ApiError(404, 'NOT_FOUND', `No OAuth client ${clientId}.`, { clientId });
    const scopes = (input.scopes ?? caller.key.scopes).filter((s) => caller.key.scopes.includes(s));
    if (scopes.length === 0) throw new ApiError(403, 'SCOPE_REQUIRED', 'The key holds none of the scopes asked for.', { grantedScopes: caller.key.scopes });
    const grant: Grant = { id: randomSecret('grant_'), accountId: caller.account.id, clientId, scopes, resource: input.resource ?? this.resource, revoked: false };
    this.store.grants.set(grant.id, grant);
    const reply = issue(grant, scopes, { oauth: this.store, resource: this.resource, now });
    return { ...reply, status: 201, json: { ...(reply.json as object), client_id: clientId, resource: grant.resource } };
  }

  private slowDown(limiter: WindowLimiter, key: string, now: number): void {
    const wait = limiter.take(key, now);
    if (wait > 0) throw new OAuthError('slow_down', `Too many requests: retry in ${wait} s.`, 429, { 'retry-after': String(wait) });
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
