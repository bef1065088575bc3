import type { EngineRequest } from '../../src/engine/types.js';
import type { FocusedViolation } from './property-faults.js';
import { editJson, is, jsonOf, withHeaders, type Handle } from './tamper.js';

/** Faults of the OAuth and MCP flows past their first step, each caught by the protocol checks. */
const formOf = (request: EngineRequest) => new URLSearchParams(new TextDecoder().decode(request.body ?? new Uint8Array()));
const TOKEN = /^\/oauth\/token$/;
const FAKE_TOKENS = { access_token: 'sim_at_forged', token_type: 'Bearer', expires_in: 3600, refresh_token: 'sim_rt_forged', scope: 'svc:read' };
const answer = (status: number, json: unknown) => ({ status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(json), log: { correlationId: 'corr_0' } });

type McpFetch = (request: Request) => Promise<Response>;

/** Rewrites the JSON-RPC message of an MCP answer (a JSON body or the data of an SSE event). */
function editMcp(fetch: McpFetch, when: (sent: any) => boolean, edit: (message: any) => void): McpFetch {
  return async (request) => {
    const sent = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
    const response = await fetch(request);
    if (!sent || !when(sent)) return response;
    const text = await response.text();
    const rewrite = (json: string) => {
      const message = JSON.parse(json);
      edit(message);
      return JSON.stringify(message);
    };
    const body = (response.headers.get('content-type') ?? '').includes('event-stream') ? text.replace(/^data: (.+)$/gm, (_, json: string) => `data: ${rewrite(json)}`) : rewrite(text);
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

/** Remembers every refresh token a refresh spent, and answers a replay itself: the grant is never told of it. */
function replayHiddenFromGrant(h: Handle): Handle {
  const spent = new Set<string>();
  return (request) => {
    if (!is(request, 'POST', TOKEN) || formOf(request).get('grant_type') !== 'refresh_token') return h(request);
    const presented = formOf(request).get('refresh_token') ?? '';
    if (spent.has(presented)) return answer(400, { error: 'invalid_grant', error_description: 'The refresh token was already used.' });
    const response = h(request);
    if (response.status === 200) spent.add(presented);
    return response;
  };
}

/** Redeems a code for whichever registered client it was issued to, whatever client_id the request names. */
function codesForAnyClient(h: Handle): Handle {
  const clients: string[] = [];
  return (request) => {
    const response = h(request);
    if (is(request, 'POST', /^\/oauth\/register$/) && response.status === 201) clients.push(jsonOf(response).client_id);
    if (!is(request, 'POST', TOKEN) || response.status !== 400 || !/another client/.test(jsonOf(response).error_description ?? '')) return response;
    for (const clientId of clients) {
      const form = formOf(request);
      form.set('client_id', clientId);
      const retried = h({ ...request, body: new TextEncoder().encode(form.toString()) });
      if (retried.status === 200) return retried;
    }
    return response;
  };
}

export const PROTOCOL_FLOW_FAULTS: FocusedViolation[] = [
  {
    id: 'refresh-replay-spares-successor',
    description: 'a replayed refresh token is refused, but the tokens that replaced it keep working',
    rule: 'the refresh token that replaced it, after the replay',
    checks: ['oauth.refresh-replay'],
    wrap: replayHiddenFromGrant,
  },
  {
    id: 'code-redeemed-by-any-client',
    description: 'a code is redeemed whatever client_id the exchange names',
    rule: 'client A\'s code exchanged by client B',
    checks: ['oauth.cross-client'],
    wrap: codesForAnyClient,
  },
  {
    id: 'exchange-without-verifier',
    description: 'an exchange without code_verifier gives tokens (PKCE checked only when a verifier is sent)',
    rule: 'the exchange without code_verifier',
    checks: ['oauth.pkce-downgrade'],
    wrap: (h) => (request) => (is(request, 'POST', TOKEN) && formOf(request).get('grant_type') === 'authorization_code' && !formOf(request).has('code_verifier') ? answer(200, FAKE_TOKENS) : h(request)),
  },
  {
    id: 'revocation-trusts-hint',
    description: 'revocation looks only where token_type_hint points: an access token hinted as a refresh token stays valid',
    rule: 'revoked under the other kind\'s hint',
    checks: ['oauth.revocation-kinds'],
    wrap: (h) => (request) => {
      const form = formOf(request);
      const mismatched = is(request, 'POST', /^\/oauth\/revoke$/) && form.get('token_type_hint') === 'refresh_token' && (form.get('token') ?? '').startsWith('sim_at_');
      return mismatched ? answer(200, {}) : h(request);
    },
  },
  {
    id: 'denied-redirect-without-iss',
    description: 'a denied sign-in\'s redirect carries no iss',
    rule: 'what the redirect carries',
    checks: ['oauth.denied'],
    wrap: (h) => (request) => {
      const response = h(request);
      const location = response.headers.location;
      if (!is(request, 'POST', /^\/oauth\/authorize$/) || !location?.includes('error=access_denied')) return response;
      const url = new URL(location);
      url.searchParams.delete('iss');
      return withHeaders(response, (headers) => void (headers.location = url.href));
    },
  },
  {
    id: 'iss-not-announced',
    description: 'the metadata leaves out authorization_response_iss_parameter_supported while the redirects carry iss',
    rule: 'authorization_response_iss_parameter_supported',
    checks: ['oauth.metadata-complete'],
    wrap: (h) => editJson(h, (req) => is(req, 'GET', /^\/\.well-known\/oauth-authorization-server$/), (json) => void delete json.authorization_response_iss_parameter_supported),
  },
  {
    id: 'client-name-unescaped',
    description: 'the sign-in page shows a registered client_name as markup',
    rule: 'its markup is escaped',
    checks: ['oauth.page-escapes'],
    wrap: (h) => (request) => {
      const response = h(request);
      if (!is(request, 'GET', /^\/oauth\/authorize$/) || response.status !== 200) return response;
      const html = typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body as Uint8Array);
      return { ...response, body: html.replace(/&#60;img src=x/g, '<img src=x') };
    },
  },
  {
    id: 'notification-answered-200',
    description: 'a notification is answered 200 with a JSON body',
    rule: 'is answered 202 Accepted with no body',
    checks: ['mcp.notification'],
    wrapMcp: (fetch) => async (request) => {
      const sent = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
      const response = await fetch(request);
      return sent && !('id' in sent) && response.status === 202 ? new Response('{"jsonrpc":"2.0","result":{}}', { status: 200, headers: { 'content-type': 'application/json' } }) : response;
    },
  },
  {
    id: 'unknown-method-invalid-request',
    description: 'an unknown method is answered -32600 (Invalid Request), not -32601',
    rule: 'the error code of an unknown method',
    checks: ['mcp.envelope'],
    wrapMcp: (fetch) => editMcp(fetch, (sent) => sent.method === 'contracts/no-such-method', (m) => void (m.error && (m.error.code = -32600))),
  },
  {
    id: 'answer-with-another-id',
    description: 'an answer carries the id as a number whatever the request\'s type (a string id "ping-7" comes back as 7)',
    rule: 'the envelope of the answer to ping',
    checks: ['mcp.envelope'],
    wrapMcp: (fetch) => editMcp(fetch, (sent) => typeof sent.id === 'string', (m) => void (m.id = Number(String(m.id).replace(/\D/g, '')))),
  },
  {
    id: 'protocol-header-ignored',
    description: 'an unsupported MCP-Protocol-Version header is ignored (the request is served)',
    rule: 'MCP-Protocol-Version: 1999-01-01',
    checks: ['mcp.versions'],
    wrapMcp: (fetch) => (request) => {
      if (request.headers.get('mcp-protocol-version') !== '1999-01-01') return fetch(request);
      const headers = new Headers(request.headers);
      headers.set('mcp-protocol-version', '2025-11-25');
      return fetch(new Request(request, { headers }));
    },
  },
  {
    id: 'unknown-version-echoed',
    description: 'initialize with an unknown revision answers that revision back',
    rule: 'initialize asking for 1999-01-01',
    checks: ['mcp.versions'],
    wrapMcp: (fetch) => editMcp(fetch, (sent) => sent.params?.protocolVersion === '1999-01-01', (m) => void (m.result && (m.result.protocolVersion = '1999-01-01'))),
  },
  {
    id: 'ended-session-lives-on',
    description: 'DELETE /mcp answers 200 and ends nothing',
    rule: 'a ping in the ended session',
    checks: ['mcp.session-ended'],
    wrapMcp: (fetch) => (request) => (request.method === 'DELETE' ? Promise.resolve(new Response(null, { status: 200 })) : fetch(request)),
  },
  {
    id: 'tool-schema-loses-filter',
    description: 'listBuilds\'s tool takes no status filter (its inputSchema lost the query parameter)',
    rule: 'listBuilds takes no query parameter status',
    checks: ['mcp.tool-schemas'],
    wrapMcp: (fetch) => editMcp(fetch, (sent) => sent.method === 'tools/list', (m) => {
      const tool = m.result?.tools?.find((t: { name: string }) => t.name === 'listBuilds');
      if (tool) delete tool.inputSchema.properties.status;
    }),
  },
  {
    id: 'structured-result-off-schema',
    description: 'getTokenBalance\'s structured result carries the balance as a string, against its outputSchema',
    rule: 'structuredContent breaks its outputSchema',
    checks: ['mcp.tool-schemas'],
    wrapMcp: (fetch) => editMcp(fetch, (sent) => sent.method === 'tools/call' && sent.params?.name === 'getTokenBalance', (m) => {
      const content = m.result?.structuredContent;
      if (content) for (const [k, v] of Object.entries(content)) if (typeof v === 'number') content[k] = String(v);
    }),
  },
  {
    id: 'parse-error-as-invalid-params',
    description: 'a body that is not JSON is answered -32602 (Invalid params), not -32700',
    rule: 'a body that is not JSON',
    checks: ['mcp.envelope'],
    wrapMcp: (fetch) => async (request) => {
      const text = request.method === 'POST' ? await request.clone().text() : '';
      const response = await fetch(request);
      if (!text || (() => { try { JSON.parse(text); return true; } catch { return false; } })()) return response;
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32602, message: 'Invalid params' } }), { status: 400, headers: { 'content-type': 'application/json' } });
    },
  },
  {
    id: 'older-revision-not-negotiated',
    description: 'initialize always answers 2025-11-25, while requests in 2025-06-18 are served',
    rule: 'a revision it supports is answered as asked',
    checks: ['mcp.versions'],
    wrapMcp: (fetch) => editMcp(fetch, (sent) => sent.method === 'initialize' && sent.params?.protocolVersion === '2025-06-18', (m) => void (m.result && (m.result.protocolVersion = '2025-11-25'))),
  },
  {
    id: 'sessionless-request-served',
    description: 'a request without Mcp-Session-Id is served by a server that gave a session at initialize',
    rule: 'a ping without Mcp-Session-Id',
    checks: ['mcp.session-ended'],
    wrapMcp: (fetch) => async (request) => {
      const sent = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
      const response = await fetch(request);
      if (sent?.method !== 'ping' || request.headers.has('mcp-session-id') || response.status !== 400) return response;
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: sent.id, result: {} }), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  },
  {
    id: 'tasks-for-anyone',
    description: 'tasks/get answers any task id, whichever account made it (tasks kept in one table for all)',
    rule: 'another account\'s tasks/get of the task',
    checks: ['mcp.tasks-owner'],
    wrapMcp: (fetch) => {
      const made = new Map<string, unknown>();
      return async (request) => {
        const sent = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
        const response = await fetch(request);
        if (sent?.method === 'tools/call' && sent.params?.task) {
          const text = await response.clone().text();
          const task = /"task":(\{[^}]*\})/.exec(text)?.[1];
          if (task) made.set(JSON.parse(task).taskId, JSON.parse(task));
        }
        const known = sent?.method === 'tasks/get' ? made.get(sent.params?.taskId) : undefined;
        return known ? new Response(JSON.stringify({ jsonrpc: '2.0', id: sent.id, result: known }), { status: 200, headers: { 'content-type': 'application/json' } }) : response;
      };
    },
  },
  {
    id: 'origin-not-validated',
    description: 'the MCP endpoint serves a request from any Origin (a DNS-rebinding page)',
    rule: 'Origin: https://attacker.example',
    checks: ['mcp.origin'],
    wrapMcp: (fetch) => (request) => {
      if (!request.headers.has('origin')) return fetch(request);
      const headers = new Headers(request.headers);
      headers.delete('origin');
      return fetch(new Request(request, { headers }));
    },
  },
];

