import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from '../../src/mcp/mcp-endpoint.js';
import { MAX_WAITS_PER_ACCOUNT } from '../../src/mcp/wait-for-build.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';
import { T0 } from '../support/harness.js';

type Result = { structuredContent?: any; content: any[]; isError?: boolean };

interface Rig {
  simulator: Simulator;
  base: string;
  /** Reads of a build the engine served, by whether they were counted (the first of a wait) or not (its polls). */
  reads: { counted: number; polls: number };
  endpoint: McpEndpoint;
  close(): Promise<void>;
}

const rigs: Rig[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(rigs.splice(0).map((r) => r.close()));
});

/** A simulator with its MCP endpoint over HTTP; every engine answer to a tool call is checked against openapi.yaml. */
async function rig(options: McpEndpointOptions = {}): Promise<Rig> {
  const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
  const reads = { counted: 0, polls: 0 };
  const recording: Simulator = {
    ...simulator,
    handle(request, handleOptions) {
      const response = simulator.handle(request, handleOptions);
      if (typeof response.body === 'string') assertContract({ method: request.method, url: request.url, status: response.status, headers: response.headers, body: response.body });
      if (request.url.startsWith('/api/v1/builds/')) handleOptions?.uncounted ? reads.polls++ : reads.counted++;
      return response;
    },
  };
  const endpoint = createMcpEndpoint(recording, { pollMs: 20, ...options });
  const server: Server = createServer(createExpressApp(simulator, { mcp: endpoint }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const r: Rig = {
    simulator,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reads,
    endpoint,
    async close() {
      await endpoint.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  rigs.push(r);
  return r;
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

function mcpPost(r: Rig, key: string, body: unknown, session?: string): Promise<Response> {
  return fetch(`${r.base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function openSession(r: Rig, key: string): Promise<{ status: number; session: string | null; res: Response; text: string }> {
  const res = await mcpPost(r, key, INITIALIZE);
  return { status: res.status, session: res.headers.get('mcp-session-id'), res, text: await res.text() };
}

async function sessionWorks(r: Rig, key: string, session: string): Promise<boolean> {
  const res = await mcpPost(r, key, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
  await res.text();
  return res.status === 200;
}

/** A fresh account of its own, through the control API; answers its read+write key. */
async function account(r: Rig, balance = 100): Promise<{ id: string; key: string }> {
  const res = await fetch(`${r.base}/_sim/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ balance }) });
  const text = await res.text();
  assertContract({ method: 'POST', url: '/_sim/accounts', status: res.status, headers: Object.fromEntries(res.headers), body: text });
  const json = JSON.parse(text);
  return { id: json.accountId, key: json.keys.readWrite };
}

async function client(r: Rig, key: string): Promise<Client> {
  const c = new Client({ name: 'test', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${r.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  clients.push(c);
  return c;
}

describe('MCP: one account cannot take another\'s sessions', () => {
  it('caps each account\'s sessions, closing its own least recently used, and counts initialize in the rate limits', async () => {
    const r = await rig();
    const victim = await account(r);
    const attacker = await account(r);
    const kept = await openSession(r, victim.key);
    expect(kept.status).toBe(200);

    // The attacker opens sessions as fast as it can: 60 a minute is its key's limit, as for REST.
    const opened: string[] = [];
    let refused: Awaited<ReturnType<typeof openSession>> | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      const attempt = await openSession(r, attacker.key);
      if (attempt.status === 200) opened.push(attempt.session!);
      else refused = attempt;
    }
    expect(opened).toHaveLength(60);
    expect(refused!.status).toBe(429);
    expect(refused!.res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.parse(refused!.text)).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'key', limit: 60 } });

    // Every message counts too: with its minute used up, even a tools/list on an open session waits.
    const listing = await mcpPost(r, attacker.key, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, opened.at(-1));
    expect(listing.status).toBe(429);
    expect(JSON.parse(await listing.text())).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'key', limit: 60 } });
    r.simulator.clock.advance(60_000);

    // It keeps its newest 32; its oldest were closed, and nobody else's.
    expect(await sessionWorks(r, attacker.key, opened[0]!)).toBe(false);
    expect(await sessionWorks(r, attacker.key, opened.at(-1)!)).toBe(true);
    expect(await sessionWorks(r, victim.key, kept.session!)).toBe(true);
  });

  it('refuses a new session (503) when the whole table is full, rather than closing another account\'s', async () => {
    const r = await rig({ maxSessions: 4, maxSessionsPerAccount: 3 });
    const [a, b, c] = [await account(r), await account(r), await account(r)];
    const bSession = (await openSession(r, b.key)).session!;
    const aSessions = [await openSession(r, a.key), await openSession(r, a.key), await openSession(r, a.key)].map((s) => s.session!);
    // A full account replaces its own least recently used session, even in a full table.
    expect(await sessionWorks(r, a.key, aSessions[0]!)).toBe(true); // used: the least recent is now the second
    const fourth = await openSession(r, a.key);
    expect(fourth.status).toBe(200);
    expect(await sessionWorks(r, a.key, aSessions[1]!)).toBe(false);
    expect(await sessionWorks(r, a.key, aSessions[0]!)).toBe(true);

    const refused = await openSession(r, c.key);
    expect(refused.status).toBe(503);
    expect(refused.res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.parse(refused.text).error.message).toMatch(/4 sessions/);
    expect(await sessionWorks(r, b.key, bSession)).toBe(true);

    // Once a session closes (DELETE), there is room again.
    const closed = await fetch(`${r.base}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${b.key}`, 'mcp-session-id': bSession, 'mcp-protocol-version': '2025-11-25' } });
    expect(closed.status).toBe(200);
    expect((await openSession(r, c.key)).status).toBe(200);
  });

  it('makes room in a full table by closing sessions whose key was revoked, and only those', async () => {
    const r = await rig({ maxSessions: 2, maxSessionsPerAccount: 2 });
    const [a, b, c] = [await account(r), await account(r), await account(r)];
    const rest = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${r.base}${path}`, { method, headers: { authorization: `Bearer ${b.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
      return { status: res.status, json: JSON.parse(text) };
    };
    const spare = await rest('POST', '/api/v1/keys', { name: 'assistant', scopes: ['svc:read'] });
    expect(spare.status).toBe(201);
    const aSession = (await openSession(r, a.key)).session!;
    const orphan = (await openSession(r, spare.json.value)).session!;
    expect((await openSession(r, c.key)).status).toBe(503);

    expect((await rest('DELETE', `/api/v1/keys/${spare.json.id}`)).status).toBe(200);
    const opened = await openSession(r, c.key);
    expect(opened.status, opened.text).toBe(200);
    expect(await sessionWorks(r, a.key, aSession)).toBe(true);
    // The revoked key's session is gone: its own account, with a key that holds, is told so.
    expect(await sessionWorks(r, b.key, orphan)).toBe(false);
  });

  it('closes a session left unused past its idle time', async () => {
    const r = await rig({ sessionIdleMs: 1000 });
    const me = await account(r);
    const idle = (await openSession(r, me.key)).session!;
    const busy = (await openSession(r, me.key)).session!;
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await sessionWorks(r, me.key, busy)).toBe(true);
    }
    expect(await sessionWorks(r, me.key, idle)).toBe(false);
  });
});

describe('MCP: waitForBuild is fair and quiet', () => {
  async function pendingBuild(r: Rig, key: string): Promise<string> {
    const rest = async (path: string, body: unknown) => {
      const res = await fetch(`${r.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await res.text();
      assertContract({ method: 'POST', url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
      return JSON.parse(text);
    };
    const target = await rest('/api/v1/targets', { name: 'Waits', slug: `waits-${Math.random().toString(36).slice(2, 8)}` });
    return (await rest('/api/v1/builds', { targetId: target.id, kind: 'blog', objective: 'Wait for me' })).buildId as string;
  }

  it(`caps an account at ${MAX_WAITS_PER_ACCOUNT} open waits without touching another's, journals each wait once, and polls less often as it goes`, async () => {
    const r = await rig();
    const [greedy, other] = [await account(r), await account(r)];
    const greedyBuild = await pendingBuild(r, greedy.key);
    const otherBuild = await pendingBuild(r, other.key);
    const greedyClient = await client(r, greedy.key);

    // The clock is frozen: these builds stay pending, and every wait stays open.
    const waits = Array.from({ length: MAX_WAITS_PER_ACCOUNT }, () => greedyClient.callTool({ name: 'waitForBuild', arguments: { buildId: greedyBuild, timeoutSeconds: 60 } }) as Promise<Result>);
    waits.forEach((w) => w.catch(() => {})); // a failed assertion closes the client under them
    const journaled = () => r.simulator.internal.journal.query({ accountId: greedy.id, operationId: 'getBuild', limit: 100 }).length;
    for (let i = 0; i < 200 && journaled() < MAX_WAITS_PER_ACCOUNT; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(journaled()).toBe(MAX_WAITS_PER_ACCOUNT);

    const refused = (await greedyClient.callTool({ name: 'waitForBuild', arguments: { buildId: greedyBuild } })) as Result;
    expect(refused.isError).toBe(true);
    // An error result carries the spec's error body as its text (clients drop structuredContent that is no build).
    expect(JSON.parse(refused.content[0].text)).toMatchObject({ code: 'RATE_LIMITED', details: { limit: MAX_WAITS_PER_ACCOUNT, retryAfterSeconds: expect.any(Number) } });

    // Another account waits as usual, and its wait ends when its build does.
    const otherClient = await client(r, other.key);
    const otherWait = otherClient.callTool({ name: 'waitForBuild', arguments: { buildId: otherBuild } }) as Promise<Result>;
    otherWait.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 1500));

    // Over 1.5 s at a first pause of 20 ms, a steady poll would read ~75 times a wait; growing pauses read about 9.
    const pollsPerWait = r.reads.polls / (MAX_WAITS_PER_ACCOUNT + 1);
    expect(pollsPerWait).toBeGreaterThan(3);
    expect(pollsPerWait).toBeLessThan(20);
    // The polls are in no journal: each wait shows once.
    expect(journaled()).toBe(MAX_WAITS_PER_ACCOUNT);
    expect(r.simulator.internal.journal.query({ accountId: other.id, operationId: 'getBuild', limit: 100 })).toHaveLength(1);

    r.simulator.clock.advance(3_600_000);
    expect((await otherWait).structuredContent.build.status).toBe('completed');
    for (const wait of await Promise.all(waits)) expect(wait.structuredContent.build.status).toBe('completed');
    // Slots come back when waits end.
    r.simulator.clock.advance(1);
    expect(((await greedyClient.callTool({ name: 'waitForBuild', arguments: { buildId: greedyBuild } })) as Result).structuredContent.build.status).toBe('completed');
  }, 30_000);
});
