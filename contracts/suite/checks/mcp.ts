import type { Check } from '../check.js';
import { McpSession, type RpcReply } from '../mcp-client.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { expectSuccess } from './expect.js';

const CHALLENGE = 'MCP authorization: /mcp without a credential gets 401 with a WWW-Authenticate: Bearer challenge';
const CATALOGUE = 'MCP: every operation of openapi.yaml is a tool named by its operationId, with readOnlyHint true exactly on the reads';
const SCOPES = 'MCP: a tool needs its operation\'s scope: an API key without it gets an isError result whose text is the REST 403 SCOPE_REQUIRED naming the scope';
const AGREE = 'MCP: a tool call answers what the REST operation answers for the same account (structuredContent is the REST body)';
const ERRORS = 'MCP: a tool error is an isError result whose text is the REST error body { error, code, details }, with no structuredContent (clients check that against the tool\'s output schema)';
const BUCKET = 'Limits: tool calls count in the key\'s window together with its REST calls ("all keys and MCP sessions together")';

/** Any path parameter will do where the scope is refused before the path is looked up. */
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

/** The error an isError result carries as its text, or undefined when the result is not one. */
export function toolError(reply: RpcReply): { code?: string; details?: Record<string, unknown> } | undefined {
  const result = reply.message?.result;
  if (!result?.isError || result.content?.[0]?.type !== 'text') return undefined;
  try {
    return JSON.parse(result.content[0].text);
  } catch {
    return undefined;
  }
}

/**
 * The MCP server at /mcp, black-box (strict level; skipped when the server has none): the
 * 401 challenge, one tool per operation with its read-only hint and its scope, the same
 * answers as REST, errors every client accepts, and the shared rate-limit window.
 */
export function mcpChecks(operations: readonly OperationInfo[]): Check[] {
  const protectedOps = operations.filter((o) => o.scope !== null);
  return [
    {
      id: 'mcp.challenge',
      title: CHALLENGE,
      level: 'strict',
      requests: 2,
      run: async (s) => {
        const mcp = await McpSession.open(s, null);
        const init = mcp.initialized!;
        expectEqual(init.status, 401, `${CHALLENGE}: the status`);
        expectThat(/^Bearer\b/i.test(init.headers['www-authenticate'] ?? ''), `${CHALLENGE}: got WWW-Authenticate ${JSON.stringify(init.headers['www-authenticate'] ?? null)}`);
      },
    },
    {
      id: 'mcp.catalogue',
      title: CATALOGUE,
      level: 'strict',
      requests: 4,
      run: async (s) => {
        const mcp = await McpSession.open(s);
        const listed = await mcp.request('tools/list');
        const tools = (listed.message?.result?.tools ?? []) as Array<{ name: string; annotations?: { readOnlyHint?: boolean } }>;
        const byName = new Map(tools.map((t) => [t.name, t]));
        const missing = operations.filter((o) => !byName.has(o.id)).map((o) => o.id);
        expectEqual(missing, [], `${CATALOGUE}: operations with no tool`);
        const wrongHint = operations.filter((o) => (byName.get(o.id)?.annotations?.readOnlyHint === true) !== (o.method === 'GET')).map((o) => o.id);
        expectEqual(wrongHint, [], `${CATALOGUE}: tools whose readOnlyHint is not (method is GET)`);
      },
    },
    {
      id: 'mcp.scopes',
      title: SCOPES,
      level: 'strict',
      roles: ['readOnly', 'writeOnly'],
      requests: protectedOps.length + 4,
      run: async (s) => {
        const sessions = { readOnly: await McpSession.open(s, 'readOnly'), writeOnly: await McpSession.open(s, 'writeOnly') };
        const wrong: string[] = [];
        for (const op of protectedOps) {
          const args = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, PLACEHOLDER_ID]));
          const reply = await sessions[op.scope === 'svc:write' ? 'readOnly' : 'writeOnly'].callTool(op.id, args);
          const error = toolError(reply);
          if (reply.status !== 200 || error?.code !== 'SCOPE_REQUIRED' || error.details?.requiredScope !== op.scope) {
            wrong.push(`${op.id} → ${reply.status} ${JSON.stringify(reply.message?.result ?? reply.message?.error ?? null).slice(0, 160)}`);
          }
        }
        expectEqual(wrong, [], `${SCOPES}: tools called without their scope`);
      },
    },
    {
      id: 'mcp.agrees-with-rest',
      title: AGREE,
      level: 'strict',
      covers: ['getTokenBalance', 'getTarget'],
      requests: 6,
      run: async (s) => {
        const mcp = await McpSession.open(s);
        const target = await s.fixtures.target();
        for (const [tool, args, rest] of [
          ['getTokenBalance', {}, () => s.client.op('getTokenBalance')],
          ['getTarget', { targetId: target.id }, () => s.client.op('getTarget', { targetId: target.id })],
        ] as const) {
          const viaRest = await rest();
          expectSuccess(viaRest, `${AGREE}: REST ${tool}`);
          const viaMcp = await mcp.callTool(tool, args);
          expectEqual(viaMcp.message?.result?.structuredContent, viaRest.json, `${AGREE}: ${tool}`);
        }
      },
    },
    {
      id: 'mcp.errors',
      title: ERRORS,
      level: 'strict',
      covers: ['getBuild'],
      requests: 5,
      run: async (s) => {
        const mcp = await McpSession.open(s);
        const args = { buildId: PLACEHOLDER_ID };
        const viaRest = await s.client.op('getBuild', args);
        expectEqual(viaRest.status, 404, `${ERRORS}: REST getBuild of an unknown id`);
        const reply = await mcp.callTool('getBuild', args);
        const result = reply.message?.result;
        expectThat(result?.isError === true, `${ERRORS}: getBuild of an unknown id answered ${JSON.stringify(reply.message).slice(0, 200)}`);
        expectEqual(result.structuredContent, undefined, `${ERRORS}: the structuredContent of an error result`);
        expectEqual(toolError(reply), viaRest.json, `${ERRORS}: the text of the error result`);
      },
    },
    {
      id: 'mcp.shared-window',
      title: BUCKET,
      level: 'strict',
      covers: ['getTokenBalance'],
      requests: 6,
      run: async (s) => {
        await s.client.ensureWindow('readWrite', 'getTokenBalance', 4);
        const mcp = await McpSession.open(s);
        const before = await s.client.op('getTokenBalance');
        const call = await mcp.callTool('getTokenBalance');
        expectThat(call.message?.result && !call.message.result.isError, `${BUCKET}: the tool call answered ${JSON.stringify(call.message).slice(0, 200)}`);
        const after = await s.client.op('getTokenBalance');
        if (before.headers['x-ratelimit-reset'] !== after.headers['x-ratelimit-reset']) s.skipBecause('the window turned between the readings');
        const fell = Number(before.headers['x-ratelimit-remaining']) - Number(after.headers['x-ratelimit-remaining']);
        expectEqual(fell, 2, `${BUCKET}: X-RateLimit-Remaining over a REST call, a tool call and a REST call`);
      },
    },
  ];
}
