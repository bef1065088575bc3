/**
 * One script over the simulator's whole surface, run the same way against every adapter and
 * runtime (in Node against a server or msw, in Chromium inside the page): health, a REST
 * flow, an MCP tool call, an OAuth token exchange, then the journal. It only records what
 * came back; the test judges it.
 */
export interface Reply {
  step: string;
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  text: string;
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Calls `base` + each path in turn; `key` is an API key of the simulator under test. */
export async function runSurfaceScript(base: string, key: string, fetchOf: Fetch = fetch): Promise<Reply[]> {
  const replies: Reply[] = [];
  const call = async (step: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const response = await fetchOf(`${base}${path}`, { method, headers, body });
    const reply = { step, method, path, status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
    replies.push(reply);
    return reply;
  };
  const json = { 'content-type': 'application/json' };
  const bearer = { authorization: `Bearer ${key}` };

  await call('health', 'GET', '/healthz');
  await call('balance', 'GET', '/api/v1/tokens/balance', bearer);
  await call('target', 'POST', '/api/v1/targets', { ...bearer, ...json }, JSON.stringify({ name: 'Acme', slug: 'acme', brandKit: { voice: 'plain', tone: 'warm' } }));
  await call('mcp', 'POST', '/mcp', {
    ...bearer,
    ...json,
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'listTargets',
  }, JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'listTargets',
      arguments: {},
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'surface-script', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  }));
  const minted = await call('mint', 'POST', '/_sim/oauth/tokens', json, JSON.stringify({ apiKey: key }));
  const refreshToken = minted.status === 201 ? (JSON.parse(minted.text) as { refresh_token: string }).refresh_token : 'none';
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'content-sim-demo' });
  await call('oauth', 'POST', '/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' }, form.toString());
  await call('journal', 'GET', '/_sim/journal?limit=100');
  return replies;
}
