import { createHash } from 'node:crypto';
import type { EngineRequest } from '../../src/engine/types.js';
import { hashSecret } from '../../src/oauth/secrets.js';
import type { Simulator } from '../../src/simulator.js';
import { editMessages } from './mcp.js';
import { is, type Handle } from './tamper.js';
import type { Violation } from './violation.js';

/**
 * Faults of the MCP tools and resources beyond a few reads, and of the OAuth flow beyond
 * discovery: what a suite that never calls a write tool, never reads a resource and never
 * exchanges a code lets through.
 */

type McpFetch = (request: Request) => Promise<Response>;

const formOf = (request: EngineRequest) => new URLSearchParams(new TextDecoder().decode(request.body ?? new Uint8Array()));
const TOKEN = /^\/oauth\/token$/;

/** Changes the authorization code's record before the token endpoint reads it. */
function beforeCodeExchange(h: Handle, sim: Simulator, change: (record: any, form: URLSearchParams) => void): Handle {
  return (req) => {
    if (is(req, 'POST', TOKEN)) {
      const form = formOf(req);
      const record = form.get('grant_type') === 'authorization_code' ? sim.internal.oauth.store.codes.get(hashSecret(form.get('code') ?? '')) : undefined;
      if (record) change(record, form);
    }
    return h(req);
  };
}

/** Rewrites the query of the authorization requests. */
function authorizeQuery(h: Handle, edit: (query: URLSearchParams) => void): Handle {
  return (req) => {
    if (!is(req, 'GET', /^\/oauth\/authorize$/)) return h(req);
    const [path, query = ''] = req.url.split('?') as [string, string?];
    const params = new URLSearchParams(query);
    edit(params);
    return h({ ...req, url: `${path}?${params}` });
  };
}

/** Rewrites the arguments of a tool call before the server reads them. */
function toolArguments(fetch: McpFetch, tool: string, edit: (args: Record<string, unknown>) => void): McpFetch {
  return async (request) => {
    if (request.method !== 'POST') return fetch(request);
    const sent = await request.clone().json().catch(() => undefined);
    if (sent?.method !== 'tools/call' || sent.params?.name !== tool) return fetch(request);
    edit(sent.params.arguments ?? {});
    return fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify(sent) }));
  };
}

/** The HTML resource of a deliverable answers its Markdown. */
function htmlResourceAsMarkdown(fetch: McpFetch): McpFetch {
  return async (request) => {
    const sent = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
    const uri = sent?.method === 'resources/read' ? String(sent.params?.uri ?? '') : '';
    if (!uri.endsWith('.html')) return fetch(request);
    const asMarkdown = { ...sent, params: { uri: uri.replace(/\.html$/, '.md') } };
    return fetch(new Request(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify(asMarkdown) }));
  };
}

export const FLOW_VIOLATIONS: Violation[] = [
  // MCP beyond a few reads
  {
    id: 'mcp-write-tool-drops-idempotency-key',
    description: 'the createBuild tool ignores its idempotencyKey: a REST retry of the same operation creates and charges a second build',
    rule: 'createBuild with idempotencyKey is replayed by REST with the same Idempotency-Key',
    wrapMcp: (f) => toolArguments(f, 'createBuild', (args) => void delete args.idempotencyKey),
  },
  {
    id: 'mcp-list-tool-oldest-first',
    description: 'the listBuilds tool answers oldest first where REST answers newest first',
    rule: 'every read tool answers what its REST operation answers',
    wrapMcp: (f) =>
      editMessages(f, (m, sent) => {
        if (sent?.params?.name === 'listBuilds' && Array.isArray(m.result?.structuredContent?.data)) m.result.structuredContent.data.reverse();
      }),
  },
  {
    id: 'mcp-update-tool-drops-fields',
    description: 'the updateTarget tool drops the description it is given',
    rule: 'a target made, changed and deleted by tools is what REST reads',
    wrapMcp: (f) => toolArguments(f, 'updateTarget', (args) => void delete args.description),
  },
  {
    id: 'mcp-key-tool-widens-scopes',
    description: 'the createApiKey tool makes a key with both scopes, whatever it is asked',
    rule: 'the write tools of the library, chat and keys do what their REST operations do',
    wrapMcp: (f) => toolArguments(f, 'createApiKey', (args) => void (args.scopes = ['svc:read', 'svc:write'])),
  },
  {
    id: 'mcp-purchase-tool-drops-idempotency-key',
    description: 'the purchaseTokens tool ignores its idempotencyKey: a REST retry buys again',
    rule: 'purchaseTokens with an idempotencyKey is replayed by REST',
    wrapMcp: (f) => toolArguments(f, 'purchaseTokens', (args) => void delete args.idempotencyKey),
  },
  {
    id: 'mcp-402-as-protocol-error',
    description: 'a tool refused for want of tokens answers a JSON-RPC error, not an isError result with the REST 402 body',
    rule: 'every error class a tool meets (400, 402, 403, 404, 409) is an isError result',
    wrapMcp: (f) =>
      editMessages(f, (m) => {
        if (m.result?.isError && JSON.stringify(m.result).includes('INSUFFICIENT_TOKENS')) {
          m.error = { code: -32603, message: 'Insufficient tokens' };
          delete m.result;
        }
      }),
  },
  {
    id: 'mcp-429-as-protocol-error',
    description: 'a tool call over its rate limit answers a JSON-RPC error, not an isError result with the REST 429 body',
    rule: 'a tool call over its rate limit is an isError result carrying 429 RATE_LIMITED',
    wrapMcp: (f) =>
      editMessages(f, (m) => {
        if (m.result?.isError && JSON.stringify(m.result).includes('RATE_LIMITED')) {
          m.error = { code: -32000, message: 'Rate limited' };
          delete m.result;
        }
      }),
  },
  {
    id: 'mcp-html-resource-is-markdown',
    description: 'resources/read of a deliverable\'s .html answers its Markdown',
    rule: 'resources/read answers a deliverable as Markdown, HTML and JSON',
    wrapMcp: htmlResourceAsMarkdown,
  },
  {
    id: 'mcp-revoked-key-403',
    description: 'a revoked API key on /mcp gets 403, without the 401 challenge',
    rule: 'a revoked or malformed key on /mcp gets 401',
    wrapMcp: (f) => async (request) => {
      const response = await f(request);
      if (response.status !== 401 || !/^Bearer svc_live_/.test(request.headers.get('authorization') ?? '')) return response;
      return new Response(JSON.stringify({ error: 'Forbidden.', code: 'INVALID_API_KEY', details: {} }), { status: 403, headers: { 'content-type': 'application/json' } });
    },
  },
  // OAuth beyond discovery
  {
    id: 'oauth-verifier-not-compared',
    description: 'the token endpoint gives tokens for any well-formed code_verifier',
    rule: 'that does not match its code_challenge is invalid_grant',
    documented: true,
    wrap: (h, sim) => beforeCodeExchange(h, sim, (record, form) => void (record.challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url'))),
  },
  {
    id: 'oauth-code-reusable',
    description: 'an authorization code can be exchanged again',
    rule: 'a code is used once',
    documented: true,
    wrap: (h, sim) => beforeCodeExchange(h, sim, (record) => void (record.grantId = null)),
  },
  {
    id: 'oauth-error-redirect-bare',
    description: 'a refused authorization redirects with its error alone, without the state sent or the issuer',
    rule: 'the error of the redirect with no code_challenge (its error, the state sent and the issuer)',
    wrap: (h) => (req) => {
      const res = h(req);
      const name = Object.keys(res.headers).find((k) => k.toLowerCase() === 'location');
      if (!is(req, 'GET', /^\/oauth\/authorize$/) || !name || !(res.headers[name] ?? '').includes('error=')) return res;
      const location = new URL(res.headers[name] as string);
      for (const param of ['state', 'iss']) location.searchParams.delete(param);
      return { ...res, headers: { ...res.headers, [name]: location.toString() } };
    },
  },
  {
    id: 'oauth-code-never-expires',
    description: 'an authorization code is still good long after its 60 seconds',
    rule: 'a code expires shortly after it is issued',
    wrap: (h, sim) => beforeCodeExchange(h, sim, (record) => void (record.expiresAt = Number.MAX_SAFE_INTEGER)),
  },
  {
    id: 'oauth-resource-ignored',
    description: 'the authorization endpoint ignores the resource asked for and issues a code for any audience',
    rule: 'asking for another resource is invalid_target',
    wrap: (h) => authorizeQuery(h, (q) => q.delete('resource')),
  },
  {
    id: 'oauth-unknown-scope-dropped',
    description: 'an unknown scope asked for is dropped silently and a code issued',
    rule: 'an unknown scope gets no code',
    documented: true,
    wrap: (h) => authorizeQuery(h, (q) => {
      const scopes = (q.get('scope') ?? '').split(' ').filter((s) => s === 'svc:read' || s === 'svc:write');
      q.set('scope', scopes.length ? scopes.join(' ') : 'svc:read');
    }),
  },
  {
    id: 'oauth-grant-wider-than-key',
    description: 'a grant holds every scope asked for, even those the signing-in key lacks',
    rule: 'a grant holds no scope the signing-in key lacks',
    documented: true,
    wrap: (h, sim) => beforeCodeExchange(h, sim, (record) => void (record.scopes = ['svc:read', 'svc:write'])),
  },
  {
    id: 'oauth-access-token-never-expires',
    description: 'an access token still works on /mcp after its hour',
    rule: 'an expired access token gets 401 on /mcp',
    wrap: (h, sim) => {
      const tokens = sim.internal.oauth.store.accessTokens;
      const set = tokens.set.bind(tokens);
      tokens.set = (key, token) => set(key, { ...token, expiresAt: Number.MAX_SAFE_INTEGER });
      return h;
    },
  },
];
