import type { Violation } from './violation.js';

type McpFetch = (request: Request) => Promise<Response>;

/** Rewrites the JSON-RPC messages of a response, whether JSON or an SSE stream. */
export function editMessages(fetch: McpFetch, edit: (message: any, request: any) => void): McpFetch {
  return async (request) => {
    const sent = request.method === 'POST' ? await request.clone().json().catch(() => undefined) : undefined;
    const response = await fetch(request);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('json') && !type.includes('event-stream')) return response;
    const text = await response.text();
    const rewrite = (json: string) => {
      const message = JSON.parse(json);
      edit(message, sent);
      return JSON.stringify(message);
    };
    const body = type.includes('event-stream') ? text.replace(/^data: (.*)$/gm, (_, json: string) => `data: ${rewrite(json)}`) : text && rewrite(text);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(body, { status: response.status, headers });
  };
}

function editHeaders(fetch: McpFetch, when: (response: Response) => boolean, edit: (headers: Headers) => void): McpFetch {
  return async (request) => {
    const response = await fetch(request);
    if (!when(response)) return response;
    const headers = new Headers(response.headers);
    edit(headers);
    return new Response(response.body, { status: response.status, headers });
  };
}

/** Answers HTTP 403 with a step-up challenge where the server answered a SCOPE_REQUIRED tool result. */
function scopeAsHttp403(fetch: McpFetch): McpFetch {
  return async (request) => {
    const response = await fetch(request);
    const text = await response.clone().text();
    if (!text.includes('SCOPE_REQUIRED') || !text.includes('"isError":true')) return response;
    return new Response(JSON.stringify({ error: 'Insufficient scope.', code: 'SCOPE_REQUIRED', details: {} }), {
      status: 403,
      headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="content-service", error="insufficient_scope", scope="svc:read svc:write"' },
    });
  };
}

/** Violations of the MCP server: its challenge, its catalogue, its scopes, its errors, its agreement with REST. */
export const MCP_VIOLATIONS: Violation[] = [
  {
    id: 'mcp-401-without-challenge',
    description: '/mcp without a credential answers 401 with no WWW-Authenticate',
    rule: '/mcp without a credential gets 401 with a WWW-Authenticate: Bearer challenge',
    wrapMcp: (f) => editHeaders(f, (r) => r.status === 401, (h) => h.delete('www-authenticate')),
  },
  {
    id: 'mcp-tool-missing',
    description: 'deleteTarget is not offered as a tool',
    rule: 'every operation of openapi.yaml is a tool named by its operationId',
    wrapMcp: (f) =>
      editMessages(f, (m) => {
        if (Array.isArray(m.result?.tools)) m.result.tools = m.result.tools.filter((t: { name: string }) => t.name !== 'deleteTarget');
      }),
  },
  {
    id: 'mcp-write-marked-read-only',
    description: 'createTarget is annotated readOnlyHint: true',
    rule: 'with readOnlyHint true exactly on the reads',
    wrapMcp: (f) =>
      editMessages(f, (m) => {
        for (const t of m.result?.tools ?? []) if (t.name === 'createTarget') t.annotations = { ...t.annotations, readOnlyHint: true };
      }),
  },
  {
    id: 'mcp-scope-refused-over-http',
    description: 'a tool an API key lacks the scope for is refused with HTTP 403, which SDK clients throw on, not with an isError result',
    rule: 'an API key without it gets an isError result',
    wrapMcp: scopeAsHttp403,
  },
  {
    id: 'mcp-error-structured-content',
    description: 'a tool error carries { error, code, details } as structuredContent, which the tool\'s output schema does not admit',
    rule: 'with no structuredContent',
    wrapMcp: (f) =>
      editMessages(f, (m) => {
        if (m.result?.isError && m.result.content?.[0]?.type === 'text') m.result.structuredContent = JSON.parse(m.result.content[0].text);
      }),
  },
  {
    id: 'mcp-balance-disagrees',
    description: 'getTokenBalance over MCP answers one token more than REST',
    rule: 'a tool call answers what the REST operation answers for the same account',
    wrapMcp: (f) =>
      editMessages(f, (m, sent) => {
        if (sent?.params?.name === 'getTokenBalance' && m.result?.structuredContent) m.result.structuredContent.balance += 1;
      }),
  },
];
