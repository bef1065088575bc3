import type { Check } from '../check.js';
import { McpSession } from '../mcp-client.js';
import type { OperationInfo } from '../openapi-model.js';
import { expectEqual, expectThat } from '../outcomes.js';
import { expectSuccess } from './expect.js';

const CHALLENGE = 'MCP authorization: /mcp without a credential gets 401 with a WWW-Authenticate: Bearer challenge';
const CATALOGUE = 'MCP: every operation of openapi.yaml is a tool named by its operationId, with readOnlyHint true exactly on the reads';
const SCOPES = 'MCP: a tool needs its operation\'s scope: a key without it gets 403 with WWW-Authenticate: Bearer error="insufficient_scope" naming the scope';
const AGREE = 'MCP: a tool call answers what the REST operation answers for the same account (structuredContent is the REST body)';
const BUCKET = 'Limits: tool calls count in the key\'s window together with its REST calls ("all keys and MCP sessions together")';

/**
 * The MCP server at /mcp, black-box (strict level; skipped when the server has none): the
 * 401 challenge, one tool per operation with its read-only hint and its scope, the same
 * answers as REST, and the shared rate-limit window.
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
          const reply = await sessions[op.scope === 'svc:write' ? 'readOnly' : 'writeOnly'].callTool(op.id, {});
          const challenge = reply.headers['www-authenticate'] ?? '';
          if (reply.status !== 403 || !/error="insufficient_scope"/.test(challenge) || !challenge.includes(op.scope as string)) wrong.push(`${op.id} → ${reply.status} ${challenge}`);
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
