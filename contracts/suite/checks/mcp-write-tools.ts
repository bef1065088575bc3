import type { Check } from '../check.js';
import { McpSession, type RpcReply } from '../mcp-client.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

const CAPABILITIES = 'MCP: the write tools of the library, chat and keys do what their REST operations do: what a tool made, changed, said or revoked is what REST reads, and a tool that computes answers what REST computes for the same input';
const PURCHASE = 'MCP: purchaseTokens with an idempotencyKey is replayed by REST with the same Idempotency-Key: one purchase, answered again with idempotent: true';

/** A tool's answer: its structuredContent when it succeeded, or a failure naming the tool. */
function done(reply: RpcReply, tool: string): any {
  const result = reply.message?.result;
  expectThat(result && !result.isError && result.structuredContent !== undefined, `${CAPABILITIES}: ${tool} answered ${JSON.stringify(reply.message).slice(0, 200)}`);
  return result.structuredContent;
}

const withoutValue = ({ value: _value, ...rest }: Record<string, unknown>) => rest;

/** Write tools beyond targets and builds, each checked through its REST reads. */
export function mcpWriteToolChecks(): Check[] {
  return [
    {
      id: 'mcp.write-tools-capabilities',
      title: CAPABILITIES,
      level: 'strict',
      covers: ['createLibraryItem', 'updateLibraryItem', 'deleteLibraryItem', 'createChat', 'postChatMessage', 'createApiKey', 'revokeApiKey', 'extractKeywords'],
      requests: 26,
      run: async (s: Session) => {
        const mcp = await McpSession.open(s);
        const { id: targetId } = await s.fixtures.target();
        const call = async (tool: string, values: Record<string, unknown>, body?: Record<string, unknown>) => done(await mcp.callTool(tool, body ? await mcp.argumentsFor(tool, values, body) : values), tool);

        const item = await call('createLibraryItem', { targetId }, { type: 'glossary_term', name: `${s.config.runId} tool term`, content: 'Made by a tool.' });
        expectEqual((await s.client.op('getLibraryItem', { targetId, itemId: item.id })).json, item, `${CAPABILITIES}: REST getLibraryItem of the item createLibraryItem made`);
        const changed = await call('updateLibraryItem', { targetId, itemId: item.id }, { content: 'Changed by a tool.' });
        expectEqual(changed.content, 'Changed by a tool.', `${CAPABILITIES}: the content updateLibraryItem set`);
        expectEqual((await s.client.op('getLibraryItem', { targetId, itemId: item.id })).json, changed, `${CAPABILITIES}: REST getLibraryItem after updateLibraryItem`);
        const deleted = await mcp.callTool('deleteLibraryItem', { targetId, itemId: item.id });
        expectThat(deleted.message?.result && !deleted.message.result.isError, `${CAPABILITIES}: deleteLibraryItem answered ${JSON.stringify(deleted.message).slice(0, 200)}`);
        expectStatus(await s.client.op('getLibraryItem', { targetId, itemId: item.id }), 404, `${CAPABILITIES}: REST getLibraryItem after deleteLibraryItem`);

        const chat = await call('createChat', {}, { targetId, title: `Tool chat ${s.config.runId}` });
        const exchange = await call('postChatMessage', { chatId: chat.id }, { content: 'What tone should a launch post take?' });
        const history = (await s.client.op('getChat', { chatId: chat.id })).json;
        expectEqual(history.messages?.slice(-2), [exchange.message, exchange.reply], `${CAPABILITIES}: REST getChat after postChatMessage (the last two messages)`);

        const key = await call('createApiKey', {}, { name: `${s.config.runId} tool key`, scopes: ['svc:read'] });
        try {
          expectEqual(key.scopes, ['svc:read'], `${CAPABILITIES}: the scopes of the key createApiKey made`);
          expectEqual((await s.client.op('getApiKey', { keyId: key.id })).json, withoutValue(key), `${CAPABILITIES}: REST getApiKey of the key createApiKey made (without its value)`);
          expectStatus(await s.client.op('getTokenBalance', {}, { authorization: `Bearer ${key.value}` }), 200, `${CAPABILITIES}: the key createApiKey made reads the balance`);
          const revoked = await call('revokeApiKey', { keyId: key.id });
          expectEqual((await s.client.op('getApiKey', { keyId: key.id })).json, revoked, `${CAPABILITIES}: REST getApiKey after revokeApiKey`);
          expectStatus(await s.client.op('getTokenBalance', {}, { authorization: `Bearer ${key.value}` }), 401, `${CAPABILITIES}: the key revokeApiKey revoked`);
        } finally {
          await s.client.op('revokeApiKey', { keyId: key.id }).catch(() => undefined);
        }

        const text = { text: 'Cold brew coffee at home: cold brew ratio, cold brew time, grind size for cold brew.', max: 3 };
        const viaRest = await s.client.op('extractKeywords', {}, { body: text });
        expectEqual(await call('extractKeywords', {}, text), viaRest.json, `${CAPABILITIES}: extractKeywords over MCP and REST for the same text`);
      },
    },
    {
      id: 'mcp.purchase-tool',
      title: PURCHASE,
      level: 'strict',
      groups: ['spend'],
      buys: true,
      covers: ['purchaseTokens'],
      requests: 6,
      run: async (s: Session) => {
        const mcp = await McpSession.open(s);
        const bundles = (await s.client.op('listTokenBundles')).json?.data as Array<{ id: string }> | undefined;
        if (!bundles?.length) return s.skipBecause('no bundle is on sale');
        const key = `${s.config.runId}-mcp-purchase`;
        const bought = done(await mcp.callTool('purchaseTokens', await mcp.argumentsFor('purchaseTokens', { idempotencyKey: key }, { bundleId: bundles[0]!.id })), 'purchaseTokens');
        expectThat(bought.idempotent === undefined, `${PURCHASE}: the first purchase is no replay: got ${JSON.stringify(bought).slice(0, 200)}`);
        const replay = await s.client.op('purchaseTokens', {}, { body: { bundleId: bundles[0]!.id }, headers: { 'Idempotency-Key': key } });
        expectStatus(replay, 200, `${PURCHASE}: REST with the tool's idempotencyKey`);
        expectEqual([replay.json.idempotent, replay.json.transaction], [true, bought.transaction], `${PURCHASE}: idempotent and the transaction`);
      },
    },
  ];
}
