import type { Check } from '../check.js';
import { blogBody, readBalance } from '../fixtures.js';
import { McpSession, type RpcReply } from '../mcp-client.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { ContractFailure, expectEqual, expectThat, SkipSignal } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus, isSuccess } from './expect.js';
import { ownedPathValues } from './owned-ids.js';

const READS = 'MCP: every read tool answers what its REST operation answers for the same account and ids (structuredContent is the REST body; a file is its text)';
const WRITES = 'MCP: write tools do what their REST operations do: a target made, changed and deleted by tools is what REST reads; createBuild with idempotencyKey is replayed by REST with the same Idempotency-Key, and charged once';
const CLASSES = 'MCP: every error class a tool meets (400, 402, 403, 404, 409) is an isError result carrying the REST error { error, code, details } of the same call';
const LIMITED = 'MCP: a tool call over its rate limit is an isError result carrying 429 RATE_LIMITED in the REST error shape, after exactly the limit of its route class (20 a minute for suggestions)';
const RESOURCES = 'MCP: resources/read answers a deliverable as Markdown, HTML and JSON and a target\'s library as REST does, to a key with svc:read; without svc:read, or for an unknown id, it answers a JSON-RPC error and no contents';
const REVOKED = 'MCP authorization: a revoked or malformed key on /mcp gets 401 with a WWW-Authenticate: Bearer challenge';

/** The error an isError result carries as its text. */
function toolError(reply: RpcReply): any {
  const result = reply.message?.result;
  if (!result?.isError) return undefined;
  try {
    return JSON.parse(result.content?.[0]?.text ?? '');
  } catch {
    return { unreadable: result.content };
  }
}

/** A tool's answer as REST would give it: structuredContent, or the text of a file. */
function toolBody(reply: RpcReply): unknown {
  const result = reply.message?.result;
  if (result?.structuredContent !== undefined) return result.structuredContent;
  const block = result?.content?.[0];
  return block?.resource?.text ?? block?.text;
}

const TEXT_FILES = new Set(['downloadDeliverable']);

export function mcpToolChecks(operations: readonly OperationInfo[]): Check[] {
  const reads = operations.filter((o) => o.method === 'GET' && o.scope === 'svc:read');
  return [
    {
      id: 'mcp.read-tools',
      title: READS,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: reads.map((o) => o.id),
      requests: reads.length * 3 + 6,
      run: async (s) => {
        const mcp = await McpSession.open(s);
        const differ: string[] = [];
        let compared = 0;
        // Tool calls count in the key's windows where the client's pacing does not see them: a fresh window every dozen pairs.
        await s.client.freshWindow();
        let inWindow = 0;
        for (const op of reads) {
          if ((inWindow += 4) > 48) {
            await s.client.freshWindow();
            inWindow = 4;
          }
          let values: Record<string, string>;
          try {
            values = await ownedPathValues(s, op.path);
          } catch (e) {
            if (e instanceof SkipSignal) continue; // nothing of that kind to read in this account
            throw e;
          }
          const query: Record<string, string> = {};
          for (const p of op.parameters) if (p.in === 'query' && p.required) query[p.name] = String(p.schema.enum?.[0] ?? '');
          const rest = await s.client.op(op.id, values, { query });
          if (!isSuccess(rest)) continue; // the REST checks judge it
          const viaMcp = await mcp.callTool(op.id, { ...values, ...query });
          compared++;
          const binary = !TEXT_FILES.has(op.id) && !(rest.headers['content-type'] ?? '').includes('json');
          if (binary) {
            if (viaMcp.message?.result?.isError !== false && !viaMcp.message?.result?.content) differ.push(`${op.id}: ${JSON.stringify(viaMcp.message).slice(0, 160)}`);
            continue;
          }
          const expected = rest.json ?? rest.text;
          if (JSON.stringify(toolBody(viaMcp)) !== JSON.stringify(expected)) differ.push(`${op.id}: REST ${JSON.stringify(expected).slice(0, 120)} ≠ MCP ${JSON.stringify(toolBody(viaMcp) ?? viaMcp.message).slice(0, 120)}`);
        }
        expectThat(compared > reads.length / 2, `${READS}: only ${compared} of ${reads.length} read tools could be compared`);
        expectEqual(differ, [], `${READS}: tools answering otherwise than REST`);
      },
    },
    {
      id: 'mcp.write-tools',
      title: WRITES,
      level: 'strict',
      groups: ['spend'],
      covers: ['createTarget', 'updateTarget', 'deleteTarget', 'createBuild'],
      requests: 16,
      run: async (s) => {
        s.spend(1, 'a build made by an MCP tool');
        const mcp = await McpSession.open(s);
        const made = await mcp.callTool('createTarget', await mcp.argumentsFor('createTarget', {}, { ...s.newTargetName('mcp'), description: 'Made by a tool', brandKit: { voice: 'plain', tone: 'calm' } }));
        const target = toolBody(made) as { id: string; description: string };
        expectThat(made.message?.result && !made.message.result.isError && target?.id, `${WRITES}: createTarget answered ${JSON.stringify(made.message).slice(0, 200)}`);
        const read = await s.client.op('getTarget', { targetId: target.id });
        expectEqual(read.json, target, `${WRITES}: REST getTarget of the target createTarget made`);
        const changed = await mcp.callTool('updateTarget', await mcp.argumentsFor('updateTarget', { targetId: target.id }, { description: 'Changed by a tool' }));
        expectEqual((await s.client.op('getTarget', { targetId: target.id })).json, toolBody(changed), `${WRITES}: REST getTarget after updateTarget`);
        expectEqual((toolBody(changed) as { description?: string })?.description, 'Changed by a tool', `${WRITES}: the description updateTarget set`);

        await s.client.ensureWindow('readWrite', 'createBuild', 3);
        const before = await readBalance(s);
        const key = `${s.config.runId}-mcp-build`;
        const body = blogBody(s, target.id, `A build made by an MCP tool (${s.config.runId})`);
        const built = await mcp.callTool('createBuild', await mcp.argumentsFor('createBuild', { idempotencyKey: key }, body));
        const first = toolBody(built) as { buildId?: string; idempotent?: boolean };
        expectThat(first?.buildId && first.idempotent === undefined, `${WRITES}: createBuild answered ${JSON.stringify(built.message).slice(0, 200)}`);
        const replay = await s.client.op('createBuild', {}, { body, headers: { 'Idempotency-Key': key } });
        expectEqual([replay.json?.buildId, replay.json?.idempotent], [first.buildId, true], `${WRITES}: REST createBuild with the tool's idempotencyKey`);
        const again = await mcp.callTool('createBuild', await mcp.argumentsFor('createBuild', { idempotencyKey: key }, body));
        expectEqual([(toolBody(again) as any)?.buildId, (toolBody(again) as any)?.idempotent], [first.buildId, true], `${WRITES}: the tool replayed with its idempotencyKey`);
        const after = await readBalance(s);
        expectEqual(before.balance - after.balance, 1, `${WRITES}: the balance after one build and two replays ("the same token bundles pay for … API and MCP calls")`);
        expectStatus(await s.client.op('getBuild', { buildId: first.buildId as string }), 200, `${WRITES}: REST getBuild of the tool's build`);

        const deleted = await mcp.callTool('deleteTarget', { targetId: target.id });
        expectThat(deleted.message?.result && !deleted.message.result.isError, `${WRITES}: deleteTarget answered ${JSON.stringify(deleted.message).slice(0, 200)}`);
        expectStatus(await s.client.op('getTarget', { targetId: target.id }), 404, `${WRITES}: REST getTarget after deleteTarget`);
      },
    },
    {
      id: 'mcp.error-classes',
      title: CLASSES,
      level: 'strict',
      roles: ['readOnly', 'empty'],
      covers: ['createTarget', 'createBuild', 'getTarget'],
      requests: 20,
      run: async (s) => {
        const mcp = await McpSession.open(s);
        const taken = await s.fixtures.target();
        const cases: Array<[string, McpSession, string, Record<string, unknown>, () => ReturnType<Session['client']['op']>]> = [];
        const bad = { name: 'Bad slug', slug: 'Not A Slug!', description: 'x', brandKit: { voice: 'v', tone: 't' } };
        cases.push(['400', mcp, 'createTarget', await mcp.argumentsFor('createTarget', {}, bad), () => s.client.op('createTarget', {}, { body: bad })]);
        const empty = await McpSession.open(s, 'empty');
        const foreign = await s.client.op('createTarget', {}, { as: 'empty', body: { ...s.newTargetName('mcp-empty'), description: 'x', brandKit: { voice: 'v', tone: 't' } } });
        const costly = { ...blogBody(s, foreign.json?.id ?? s.uuid()) };
        cases.push(['402', empty, 'createBuild', await empty.argumentsFor('createBuild', {}, costly), () => s.client.op('createBuild', {}, { as: 'empty', body: costly })]);
        const readOnly = await McpSession.open(s, 'readOnly');
        const dup = { name: 'Duplicate', slug: taken.slug, description: 'x', brandKit: { voice: 'v', tone: 't' } };
        cases.push(['403', readOnly, 'createTarget', await readOnly.argumentsFor('createTarget', {}, dup), () => s.client.op('createTarget', {}, { as: 'readOnly', body: dup })]);
        const unknown = s.uuid();
        cases.push(['404', mcp, 'getTarget', { targetId: unknown }, () => s.client.op('getTarget', { targetId: unknown })]);
        cases.push(['409', mcp, 'createTarget', await mcp.argumentsFor('createTarget', {}, dup), () => s.client.op('createTarget', {}, { body: dup })]);
        const wrong: string[] = [];
        for (const [status, session, tool, args, rest] of cases) {
          const viaRest = await rest();
          if (String(viaRest.status) !== status) throw new SkipSignal(`REST answered ${viaRest.status} where the case needs ${status}: the REST checks judge it`);
          const viaMcp = await session.callTool(tool, args);
          const error = toolError(viaMcp);
          if (viaMcp.message?.result?.structuredContent !== undefined || JSON.stringify(error) !== JSON.stringify(viaRest.json)) {
            wrong.push(`${status} ${tool}: REST ${viaRest.text.slice(0, 100)} ≠ MCP ${JSON.stringify(viaMcp.message?.result ?? viaMcp.message).slice(0, 140)}`);
          }
        }
        expectEqual(wrong, [], `${CLASSES}: error results`);
      },
    },
    {
      id: 'mcp.error-429',
      title: LIMITED,
      level: 'strict',
      groups: ['exhaust'],
      covers: ['extractKeywords'],
      requests: 26,
      run: async (s) => {
        const mcp = await McpSession.open(s);
        await s.client.freshWindow();
        const args = await mcp.argumentsFor('extractKeywords', {}, { text: 'Rate limits of tool calls', max: 1 });
        let served = 0;
        for (let i = 0; i < 25; i++) {
          const reply = await mcp.callTool('extractKeywords', args, { provoke429: true });
          const error = toolError(reply);
          if (!error) {
            expectThat(reply.message?.result?.structuredContent, `${LIMITED}: call ${i + 1} answered ${JSON.stringify(reply.message).slice(0, 200)}`);
            served++;
            continue;
          }
          expectEqual([error.code, typeof error.error, typeof error.details], ['RATE_LIMITED', 'string', 'object'], `${LIMITED}: the error result of call ${i + 1}`);
          expectEqual(reply.message.result.structuredContent, undefined, `${LIMITED}: structuredContent of the error result`);
          expectEqual(served, 20, `${LIMITED}: tool calls served before the limit`);
          return;
        }
        throw new ContractFailure(`${LIMITED}: 25 calls in one window were all served`);
      },
    },
    {
      id: 'mcp.resources',
      title: RESOURCES,
      level: 'strict',
      groups: ['spend', 'wait'],
      roles: ['readOnly', 'writeOnly'],
      covers: ['downloadDeliverable', 'getDeliverable', 'listLibraryItems'],
      requests: 24,
      run: async (s) => {
        const { id } = await s.fixtures.deliverable();
        const { id: targetId } = await s.fixtures.target();
        const md = await s.client.op('downloadDeliverable', { deliverableId: id }, { query: { format: 'md' } });
        const html = await s.client.op('downloadDeliverable', { deliverableId: id }, { query: { format: 'html' } });
        const full = await s.client.op('getDeliverable', { deliverableId: id });
        const library = await s.client.op('listLibraryItems', { targetId }, { query: { limit: '100' } });
        const expected: Array<[string, string]> = [
          [`content-service://deliverables/${id}.md`, md.text],
          [`content-service://deliverables/${id}.html`, html.text],
          [`content-service://deliverables/${id}`, JSON.stringify(full.json)],
          [`content-service://targets/${targetId}/library`, JSON.stringify(library.json)],
        ];
        const wrong: string[] = [];
        for (const role of ['readWrite', 'readOnly'] as const) {
          const mcp = await McpSession.open(s, role);
          for (const [uri, text] of expected) {
            const read = await mcp.request('resources/read', { uri });
            const got = read.message?.result?.contents?.[0]?.text;
            const same = uri.endsWith('.md') || uri.endsWith('.html') ? got === text : got !== undefined && JSON.stringify(JSON.parse(got)) === text;
            if (!same) wrong.push(`${role} ${uri}: ${JSON.stringify(read.message).slice(0, 160)}`);
          }
        }
        const writeOnly = await McpSession.open(s, 'writeOnly');
        const refused = await writeOnly.request('resources/read', { uri: expected[0]![0] });
        if (!refused.message?.error || refused.message?.result?.contents) wrong.push(`writeOnly ${expected[0]![0]}: ${JSON.stringify(refused.message).slice(0, 160)}`);
        const mcp = await McpSession.open(s);
        const unknown = await mcp.request('resources/read', { uri: `content-service://deliverables/${s.uuid()}.md` });
        if (!unknown.message?.error || unknown.message?.result?.contents) wrong.push(`an unknown deliverable: ${JSON.stringify(unknown.message).slice(0, 160)}`);
        expectEqual(wrong, [], `${RESOURCES}: reads`);
      },
    },
    {
      id: 'mcp.revoked-key',
      title: REVOKED,
      level: 'strict',
      roles: ['revoked'],
      requests: 2,
      run: async (s) => {
        for (const [label, session] of [
          ['the revoked key', await McpSession.open(s, 'revoked')],
          ['a malformed key', await McpSession.openWith(s, 'Bearer svc_live_not-a-valid-key')],
        ] as const) {
          const init = session.initialized!;
          expectEqual(init.status, 401, `${REVOKED}: ${label}: the status`);
          expectThat(/^Bearer\b/i.test(init.headers['www-authenticate'] ?? ''), `${REVOKED}: ${label}: WWW-Authenticate ${JSON.stringify(init.headers['www-authenticate'] ?? null)}`);
        }
      },
    },
  ];
}
