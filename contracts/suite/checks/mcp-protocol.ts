import type { Check } from '../check.js';
import { parseMessage } from '../mcp-client.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';

/**
 * The MCP server as a JSON-RPC server over Streamable HTTP, read whole: the answer to a
 * notification, the envelope of every answer, unknown names, version negotiation, the
 * protocol-version header and a terminated session.
 */
export const NOTIFICATION = 'MCP Streamable HTTP, JSON-RPC 2.0 §4.1: a notification the server accepts is answered 202 Accepted with no body (the server does not reply to a notification)';
export const ENVELOPE = 'JSON-RPC 2.0 §5, §5.1: every answer is jsonrpc "2.0" with the id of its request and exactly one of result and error; an unknown method is error -32601; an unknown tool or prompt is error -32602 (MCP Tools, Prompts: Error Handling)';
export const VERSIONS = 'MCP Lifecycle, Transports: initialize with a revision the server supports answers that revision, with an unknown one another it supports; a request with an unsupported MCP-Protocol-Version header is 400 Bad Request';
export const SESSIONS = 'MCP Transports, Session Management: a server that gives sessions answers a request without Mcp-Session-Id 400 Bad Request, and a session the client ended (DELETE with its Mcp-Session-Id) 404 Not Found afterwards';

export const ORIGIN = 'MCP Transports, Security Warning: the server validates the Origin header: a request from another site\'s page (Origin: https://attacker.example) is refused (403), never served';

const REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

interface Raw {
  status: number;
  headers: Headers;
  text: string;
  message: any;
}

function post(s: Session, body: unknown, headers: Record<string, string> = {}): Promise<Raw> {
  return rawPost(s, JSON.stringify(body), headers);
}

async function rawPost(s: Session, body: string, headers: Record<string, string> = {}): Promise<Raw> {
  const res = await s.client.raw('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${s.keys.readWrite}`, ...headers },
    body,
  }, s.keys.readWrite); // tool calls and pings count in the key's window, where the REST rules do not see them
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, message: parseMessage(text, res.headers.get('content-type') ?? '') };
}

const initialize = (version: string, id: number | string = 1) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'content-contracts', version: '1' } } });

/** An initialized session: its id (if the server keeps sessions) and the headers every later request carries. */
async function open(s: Session): Promise<{ headers: Record<string, string>; sessionId?: string; init: Raw }> {
  const init = await post(s, initialize('2025-11-25'));
  if (init.status === 404) s.skipBecause('the server has no MCP endpoint at /mcp');
  expectEqual(init.status, 200, `${ENVELOPE}: initialize (${init.text.slice(0, 160)})`);
  const sessionId = init.headers.get('mcp-session-id') ?? undefined;
  const headers: Record<string, string> = { 'mcp-protocol-version': '2025-11-25', ...(sessionId ? { 'mcp-session-id': sessionId } : {}) };
  return { headers, sessionId, init };
}

/** Holds one answer to its request: jsonrpc, id, and exactly one of result and error. */
function envelope(reply: Raw, id: number | string, what: string): void {
  const m = reply.message;
  expectThat(m && typeof m === 'object', `${ENVELOPE}: ${what} answered ${reply.status} ${reply.text.slice(0, 160)}`);
  expectEqual({ jsonrpc: m.jsonrpc, id: m.id }, { jsonrpc: '2.0', id }, `${ENVELOPE}: the envelope of the answer to ${what}`);
  expectThat(('result' in m) !== ('error' in m), `${ENVELOPE}: the answer to ${what} carries ${'result' in m ? 'both result and error' : 'neither result nor error'}`);
}

export function mcpProtocolChecks(): Check[] {
  return [
    {
      id: 'mcp.notification',
      title: NOTIFICATION,
      level: 'strict',
      requests: 4,
      run: async (s) => {
        const { headers } = await open(s);
        for (const method of ['notifications/initialized', 'notifications/cancelled']) {
          const reply = await post(s, { jsonrpc: '2.0', method, params: method === 'notifications/cancelled' ? { requestId: 12345, reason: 'contract check' } : {} }, headers);
          expectEqual(reply.status, 202, `${NOTIFICATION}: the status of the answer to ${method}`);
          expectEqual(reply.text, '', `${NOTIFICATION}: the body of the answer to ${method}`);
        }
      },
    },
    {
      id: 'mcp.envelope',
      title: ENVELOPE,
      level: 'strict',
      requests: 8,
      run: async (s) => {
        const { headers, init } = await open(s);
        envelope(init, 1, 'initialize');
        const ping = await post(s, { jsonrpc: '2.0', id: 'ping-7', method: 'ping' }, headers);
        envelope(ping, 'ping-7', 'ping (a string id)');
        const unknown = await post(s, { jsonrpc: '2.0', id: 41, method: 'contracts/no-such-method' }, headers);
        envelope(unknown, 41, 'an unknown method');
        expectEqual(unknown.message?.error?.code, -32601, `${ENVELOPE}: the error code of an unknown method`);
        const tool = await post(s, { jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'noSuchTool', arguments: {} } }, headers);
        envelope(tool, 42, 'tools/call of an unknown tool');
        expectEqual(tool.message?.error?.code, -32602, `${ENVELOPE}: the error code of tools/call naming an unknown tool`);
        const capabilities = init.message?.result?.capabilities ?? {};
        const prompts = await post(s, { jsonrpc: '2.0', id: 44, method: 'prompts/list' }, headers);
        if (prompts.message?.result) expectThat(capabilities.prompts, `${ENVELOPE}: prompts/list answers prompts, and initialize declared no prompts capability`);
        const malformed = await rawPost(s, '{"jsonrpc":"2.0","id":', headers);
        expectEqual(malformed.message?.error?.code, -32700, `${ENVELOPE}: the error code of a body that is not JSON (${malformed.status} ${malformed.text.slice(0, 120)})`);
        const invalid = await post(s, { jsonrpc: '2.0', id: 45, params: {} }, headers);
        expectEqual(invalid.message?.error?.code, -32600, `${ENVELOPE}: the error code of a request without a method (${invalid.status} ${invalid.text.slice(0, 120)})`);
        if (capabilities.prompts) {
          const prompt = await post(s, { jsonrpc: '2.0', id: 43, method: 'prompts/get', params: { name: 'noSuchPrompt' } }, headers);
          envelope(prompt, 43, 'prompts/get of an unknown prompt');
          expectEqual(prompt.message?.error?.code, -32602, `${ENVELOPE}: the error code of prompts/get naming an unknown prompt`);
        }
      },
    },
    {
      id: 'mcp.versions',
      title: VERSIONS,
      level: 'strict',
      requests: 10,
      run: async (s) => {
        const first = await open(s);
        const served = String(first.init.message?.result?.protocolVersion);
        expectEqual(served, '2025-11-25', `${VERSIONS}: initialize asking for 2025-11-25 (${first.init.text.slice(0, 120)})`);
        // Each revision is answered as asked, or the server does not serve it: then a request in it is 400 (the header rule).
        for (const revision of REVISIONS.slice(1)) {
          const older = await post(s, initialize(revision, 2));
          const answered = older.message?.result?.protocolVersion;
          expectThat(older.status === 200 && REVISIONS.includes(answered), `${VERSIONS}: initialize asking for ${revision} answered ${older.status} ${older.text.slice(0, 160)}`);
          if (answered === revision) continue;
          const inIt = await post(s, { jsonrpc: '2.0', id: 6, method: 'ping' }, { ...first.headers, 'mcp-protocol-version': revision });
          expectEqual(inIt.status, 400, `${VERSIONS}: initialize asking for ${revision} answered ${answered}, yet a ping in ${revision} (MCP-Protocol-Version) is served: a revision it supports is answered as asked`);
        }
        const unknown = await post(s, initialize('1999-01-01', 3));
        expectThat(unknown.status === 200 && REVISIONS.includes(unknown.message?.result?.protocolVersion), `${VERSIONS}: initialize asking for 1999-01-01 answers a revision the server supports: got ${unknown.status} ${unknown.text.slice(0, 160)}`);
        const badHeader = await post(s, { jsonrpc: '2.0', id: 4, method: 'ping' }, { ...first.headers, 'mcp-protocol-version': '1999-01-01' });
        expectEqual(badHeader.status, 400, `${VERSIONS}: a ping with MCP-Protocol-Version: 1999-01-01`);
      },
    },
    {
      id: 'mcp.session-ended',
      title: SESSIONS,
      level: 'strict',
      requests: 6,
      run: async (s) => {
        const { headers, sessionId } = await open(s);
        if (!sessionId) return s.skipBecause('the server keeps no sessions (no Mcp-Session-Id): nothing to end');
        const { 'mcp-session-id': _, ...sessionless } = headers;
        const without = await post(s, { jsonrpc: '2.0', id: 4, method: 'ping' }, sessionless);
        expectEqual(without.status, 400, `${SESSIONS}: a ping without Mcp-Session-Id, to a server that gave one at initialize`);
        const ended = await s.client.raw('/mcp', { method: 'DELETE', headers: { authorization: `Bearer ${s.keys.readWrite}`, ...headers } });
        await ended.body?.cancel();
        if (ended.status === 405) return s.skipBecause('the server does not let clients end sessions (DELETE is 405)');
        expectThat(ended.status >= 200 && ended.status < 300, `${SESSIONS}: DELETE /mcp with the session's id answered ${ended.status}`);
        const after = await post(s, { jsonrpc: '2.0', id: 5, method: 'ping' }, headers);
        expectEqual(after.status, 404, `${SESSIONS}: a ping in the ended session`);
      },
    },
      {
      id: 'mcp.origin',
      title: ORIGIN,
      level: 'strict',
      requests: 2,
      run: async (s) => {
        const foreign = await post(s, initialize('2025-11-25', 7), { origin: 'https://attacker.example' });
        expectThat(foreign.status === 403 || (foreign.status >= 400 && foreign.status < 500 && !foreign.message?.result), `${ORIGIN}: initialize with Origin: https://attacker.example answered ${foreign.status} ${foreign.text.slice(0, 160)}`);
      },
    },
  ];
}
