import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastBody, mcpRig, type McpRig } from './support.js';

type Result = { structuredContent?: any; content: any[]; isError?: boolean };

let rig: McpRig;
beforeEach(async () => (rig = await mcpRig()));
afterEach(async () => rig.close());

const call = async (client: Awaited<ReturnType<McpRig['client']>>, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;

async function rest(method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${rig.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

describe('MCP: the typical flow as tool calls', () => {
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    it(`balance, target, idempotent build, progress to the end, download (${era})`, async () => {
      const { keys } = rig.simulator;
      const client = await rig.client(keys.readWrite, era);

      const balance = await call(client, 'getTokenBalance');
      expect(balance.structuredContent).toEqual({ balance: 100, lifetimePurchased: 100, lifetimeUsed: 0 });
      expect(balance.structuredContent).toEqual(lastBody(rig));
      expect(JSON.parse(balance.content[0].text)).toEqual(balance.structuredContent);

      const target = await call(client, 'createTarget', { name: 'Acme', slug: `acme-${era}`, description: 'Roaster', brandKit: { voice: 'expert', tone: 'warm' } });
      expect(target.isError).toBeFalsy();
      const targetId = target.structuredContent.id;

      const buildArgs = { targetId, buildType: 'single', kind: 'blog', objective: 'Cold brew at home', researchPolicy: 'required', idempotencyKey: `flow-${era}` };
      const created = await call(client, 'createBuild', buildArgs);
      expect(created.structuredContent).toMatchObject({ buildId: expect.any(String), correlationId: expect.stringMatching(/^corr_/) });
      const replay = await call(client, 'createBuild', buildArgs);
      expect(replay.structuredContent).toMatchObject({ buildId: created.structuredContent.buildId, idempotent: true });
      expect((await call(client, 'getTokenBalance')).structuredContent.balance).toBe(99);

      const stages: string[] = [];
      setTimeout(() => rig.simulator.clock.advance(3_600_000), 60);
      const done = (await client.callTool(
        { name: 'waitForBuild', arguments: { buildId: created.structuredContent.buildId } },
        { onprogress: (p) => stages.push(String(p.message)) },
      )) as Result;
      expect(done.structuredContent.build.status).toBe('completed');
      // One jump of the clock past the whole pipeline: every stage it went through is still reported, in order.
      expect(stages).toEqual(['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed']);

      const deliverableId = done.structuredContent.deliverables[0].id;
      const full = await call(client, 'getDeliverable', { deliverableId });
      expect(full.structuredContent.id).toBe(deliverableId);
      const md = await call(client, 'downloadDeliverable', { deliverableId, format: 'md' });
      expect(md.content[0]).toMatchObject({ type: 'resource', resource: { mimeType: 'text/markdown', text: expect.stringMatching(/^# /) } });
      const html = await call(client, 'downloadDeliverable', { deliverableId, format: 'html' });
      expect(html.content[0].resource.mimeType).toBe('text/html');

      const resource = await client.readResource({ uri: `content-service://deliverables/${deliverableId}.md` });
      expect(resource.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: md.content[0].resource.text });
    });
  }

  it('agrees with REST on the same account: build, balance and transactions', async () => {
    const { keys } = rig.simulator;
    const client = await rig.client(keys.readWrite);
    const target = await rest('POST', '/api/v1/targets', keys.readWrite, { name: 'Parity', slug: 'parity', description: 'd', brandKit: { voice: 'v', tone: 't' } });
    const built = await call(client, 'createBuild', { targetId: target.body.id, buildType: 'single', kind: 'blog', objective: 'Parity', researchPolicy: 'required' });
    const buildId = built.structuredContent.buildId;
    expect((await call(client, 'getBuild', { buildId })).structuredContent).toEqual((await rest('GET', `/api/v1/builds/${buildId}`, keys.readWrite)).body);
    expect((await call(client, 'getTokenBalance')).structuredContent).toEqual((await rest('GET', '/api/v1/tokens/balance', keys.readWrite)).body);
    const viaMcp = await call(client, 'listTokenTransactions', { limit: 5 });
    expect(viaMcp.structuredContent).toEqual((await rest('GET', '/api/v1/tokens/transactions?limit=5', keys.readWrite)).body);
    expect(viaMcp.structuredContent.data[0]).toMatchObject({ buildId, amount: -1 });
  });

  it('returns images and audio as media content of their kind', async () => {
    const client = await rig.client(rig.simulator.keys.readWrite);
    const image = await call(client, 'createImage', { prompt: 'A cup of cold brew' });
    expect(image.isError).toBeFalsy();
    const file = await call(client, 'getImageFile', { imageId: image.structuredContent.id });
    expect(file.content[0]).toMatchObject({ type: 'image', mimeType: 'image/svg+xml' });
    expect(Buffer.from(file.content[0].data, 'base64').toString('utf8')).toMatch(/^<svg|^<\?xml/);
  });
});

describe('MCP: errors are isError results whose text is the spec’s { error, code, details }', () => {
  /** The error of a result, which carries no structuredContent for clients to check against the success schema. */
  const errorOf = (result: Result) => {
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toHaveLength(1);
    return JSON.parse(result.content[0].text);
  };

  it('NOT_FOUND, VALIDATION_ERROR and INSUFFICIENT_TOKENS with its arithmetic', async () => {
    const { keys } = rig.simulator;
    const client = await rig.client(keys.readWrite);
    const missing = errorOf(await call(client, 'getBuild', { buildId: '00000000-0000-4000-8000-000000000000' }));
    expect(missing).toMatchObject({ code: 'NOT_FOUND' });
    expect(missing).toEqual(lastBody(rig));

    const invalid = errorOf(await call(client, 'createTarget', { slug: 'no-name' }));
    expect(invalid).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(invalid.details.fields.map((f: { path: string }) => f.path)).toContain('body.name');

    const missingPath = errorOf(await call(client, 'getBuild', {}));
    expect(missingPath).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'buildId' }] } });

    const poor = await rig.client(keys.emptyAccount);
    const target = await call(poor, 'createTarget', { name: 'Poor', slug: 'poor', description: 'd', brandKit: { voice: 'v', tone: 't' } });
    const refused = errorOf(await call(poor, 'createBuild', { targetId: target.structuredContent.id, buildType: 'single', kind: 'blog', objective: 'x', researchPolicy: 'required' }));
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_TOKENS', details: { required: 1, available: 0, shortfall: 1 } });
  });

  it('waitForBuild’s own refusal of its arguments has the same shape', async () => {
    const client = await rig.client(rig.simulator.keys.readWrite);
    const refused = errorOf(await call(client, 'waitForBuild', { timeoutSeconds: 0 }));
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refused.details.fields.map((f: { path: string }) => f.path)).toEqual(['buildId', 'timeoutSeconds']);
  });

  it('an unknown tool is a JSON-RPC error, as is a malformed request', async () => {
    const client = await rig.client(rig.simulator.keys.readWrite);
    await expect(client.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const res = await fetch(`${rig.baseUrl}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${rig.simulator.keys.readWrite}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32700);
  });
});
