import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../oauth/support.js';
import { rawPost, serveSide, type RawAnswer, type Side } from './fast-path-support.js';

/**
 * Every answer of the stateless fast path is the SDK path's, byte for byte: the same
 * requests go to two simulators made alike (same seed, same frozen clock), one with the fast
 * path and one forced through the SDK, and their status, head (less Date and the connection's
 * own headers) and body must match; so must the journals and the client reports after. The
 * calls cover every tool the server lists, valid and invalid arguments, an unknown tool, bad
 * or missing credentials, a scope an OAuth token lacks, the rate limits, and shapes the fast
 * path must leave to the SDK.
 */
const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientInfo': { name: 'compare', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
type Json = Record<string, any>;

let fast: Side;
let sdk: Side;
let nextId = 1;

beforeAll(async () => {
  [fast, sdk] = await Promise.all([serveSide(true, { speed: 'instant' }), serveSide(false, { speed: 'instant' })]);
});
afterAll(async () => Promise.all([fast?.close(), sdk?.close()]));

interface Call {
  method?: string;
  params?: Json;
  /** Headers over the plain ones; a value of '' leaves that header out. */
  headers?: Record<string, string>;
  /** The credential, per side (each simulator holds its own). */
  credential?: (side: Side) => string;
  body?: string;
}

function headersFor(side: Side, call: Call, method: string, name: unknown): Record<string, string> {
  const plain: Record<string, string> = {
    authorization: `Bearer ${(call.credential ?? ((s) => s.simulator.keys.readWrite))(side)}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    ...call.headers,
  };
  return Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== ''));
}

/** One request to both sides, in turn; their answers must be the same bytes. */
async function both(call: Call): Promise<RawAnswer> {
  const method = call.method ?? 'tools/call';
  const body = call.body ?? JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { _meta: META, ...call.params } });
  const answers: RawAnswer[] = [];
  for (const side of [fast, sdk]) answers.push(await rawPost(side.port, headersFor(side, call, method, call.params?.name), body));
  expect(answers[0], `${method} ${call.params?.name ?? ''}: the fast path answers as the SDK does${whereApart(answers[0]!.body, answers[1]!.body)}`).toEqual(answers[1]);
  return answers[0]!;
}

/** Where two long bodies part, to read in a failure. */
function whereApart(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i === a.length && i === b.length ? '' : ` (they part at ${i}: …${a.slice(Math.max(0, i - 80), i + 80)} | …${b.slice(Math.max(0, i - 80), i + 80)})`;
}

const tool = (name: string, args?: unknown, more: Omit<Call, 'params'> = {}) => both({ ...more, params: { name, ...(args === undefined ? {} : { arguments: args }) } });

/** The values later calls need, from the results so far: every `…Id` field, and the id of what a create made. */
const known: Record<string, unknown> = {};
const ALIASES: Record<string, string> = { libraryItemId: 'itemId', apiKeyId: 'keyId', oAuthGrantId: 'grantId', tokenTransactionId: 'transactionId' };
function learn(name: string, answer: RawAnswer): void {
  const result = (JSON.parse(answer.body) as Json).result as Json | undefined;
  const content = result?.structuredContent as Json | undefined;
  if (!content) return;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string' && (key.endsWith('Id') || key === 'token')) known[key] = inner;
      // A build's deliverables: the id the deliverable tools take (downloadDeliverable answers a file, not JSON).
      if (key === 'deliverables' && Array.isArray(inner) && typeof inner[0]?.id === 'string') known.deliverableId = inner[0].id;
      walk(inner);
    }
  };
  walk(content);
  const made = /^create(\w+)$/.exec(name)?.[1];
  if (made && typeof content.id === 'string') {
    const key = `${made[0]!.toLowerCase()}${made.slice(1)}Id`;
    known[ALIASES[key] ?? key] = content.id;
  }
}

/** Arguments for a tool from its input schema: what is known first, else a value of the property's kind. */
function argumentsFor(definition: Json): Json {
  const schema = definition.inputSchema as Json;
  const args: Json = {};
  for (const name of (schema.required as string[]) ?? []) args[name] = known[name] ?? sample(schema.properties?.[name] ?? {}, schema);
  return args;
}

function sample(schema: Json, root: Json): unknown {
  if (typeof schema.$ref === 'string') return sample(root.$defs?.[schema.$ref.split('/').pop()!] ?? {}, root);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branch = (schema.anyOf ?? schema.oneOf ?? schema.allOf)?.[0];
  if (branch) return sample(branch, root);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return schema.minItems ? [sample(schema.items ?? {}, root)] : [];
    case 'object':
      return {};
    default:
      return 'fast path sample';
  }
}

let tools: Json[] = [];

describe('the stateless fast path answers as the SDK path does', () => {
  it('tools/list, on both paths, and the fast path is the one that answered', async () => {
    await both({ method: 'tools/list', params: {} }); // the first request from a Host goes the full way, which checks the Host
    const before = fast.fastAnswers;
    const answer = await both({ method: 'tools/list', params: {} });
    expect(fast.fastAnswers).toBe(before + 1);
    expect(sdk.fastAnswers).toBe(0);
    tools = (JSON.parse(answer.body) as Json).result.tools;
    expect(tools.length).toBeGreaterThan(40);
  });

  it('every tool: a valid call, then the same with no arguments (invalid params)', async () => {
    const before = fast.fastAnswers;
    learn('createTarget', await tool('createTarget', { name: 'Fast', slug: 'fast' }));
    learn('createBuild', await tool('createBuild', { targetId: known.targetId, kind: 'blog', objective: 'Fast paths', idempotencyKey: 'fast-1' }));
    const destructive = (name: string) => /^(delete|revoke|rotate)/.test(name);
    for (const pass of [false, true]) {
      for (const definition of tools.filter((t) => destructive(t.name) === pass && t.name !== 'waitForBuild')) {
        learn(definition.name, await tool(definition.name, argumentsFor(definition)));
        await tool(definition.name, {});
      }
    }
    // Every call but waitForBuild's was answered by the fast path.
    expect(fast.fastAnswers - before).toBe(2 + 2 * (tools.length - 1));
    expect(known.buildId).toEqual(expect.any(String));
    // A file comes back as a resource block: its order of fields is the SDK's too.
    const file = await tool('downloadDeliverable', { deliverableId: known.deliverableId, format: 'html' });
    expect(file.body.slice(0, 400)).toContain('"type":"resource"');
  });

  it('errors: an unknown tool, arguments of the wrong kind, a missing tool name', async () => {
    const before = fast.fastAnswers;
    expect((await tool('noSuchTool', {})).body).toContain('"code":-32602');
    await tool('getBuild', { buildId: 42 });
    await tool('getBuild', { buildId: known.buildId, extra: true });
    await tool('getBuild', 'not an object');
    await tool('getBuild', [1]);
    await both({ params: { arguments: {} } });
    await both({ params: { name: 7 } });
    // The fast path answers the first three; arguments that are not an object and a name that is not a string are the SDK's to word.
    expect(fast.fastAnswers - before).toBe(3);
  });

  it('credentials: none, malformed, unknown, an API key without the scope, an OAuth token without it', async () => {
    expect((await tool('getTokenBalance', {}, { headers: { authorization: '' } })).status).toBe(401);
    await tool('getTokenBalance', {}, { headers: { authorization: 'Basic abc' } });
    await tool('getTokenBalance', {}, { credential: () => 'sk_test_unknown' });
    await tool('createTarget', { name: 'No', slug: 'no' }, { credential: (s) => s.simulator.keys.readOnly });
    const tokens = new Map<Side, string>();
    for (const side of [fast, sdk]) tokens.set(side, (await signedInClient(`http://127.0.0.1:${side.port}`, side.simulator.keys.readOnly, 'Compare', 'svc:read')).tokens.access_token);
    const refused = await tool('createTarget', { name: 'No', slug: 'no' }, { credential: (s) => tokens.get(s)! });
    expect(refused.status).toBe(403);
    await tool('getTokenBalance', {}, { credential: (s) => tokens.get(s)! });
    await both({ method: 'tools/list', params: {}, credential: (s) => tokens.get(s)! });
  });

  it('shapes left to the SDK answer the same too', async () => {
    const before = fast.fastAnswers;
    await tool('getTokenBalance', {}, { headers: { 'mcp-name': 'getBuild' } });
    await tool('getTokenBalance', {}, { headers: { accept: 'application/json' } });
    await tool('getTokenBalance', {}, { headers: { 'content-type': 'text/plain' } });
    await tool('getTokenBalance', {}, { headers: { 'mcp-protocol-version': '' } });
    // Another site's page: the SDK path's Origin check refuses it, as it would any request.
    expect((await tool('getTokenBalance', {}, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    await both({ params: { name: 'getTokenBalance', arguments: {}, _meta: { ...META, progressToken: 'p1' } } });
    await both({ body: JSON.stringify({ jsonrpc: '2.0', id: 'tasks', method: 'tools/call', params: { name: 'createBuild', arguments: { targetId: known.targetId, kind: 'blog', objective: 'As a task' }, _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } } } }) });
    await both({ method: 'tools/list', params: { cursor: 'x' } });
    await both({ body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":' });
    // Only the call that accepts JSON alone is the fast path's (the SDK does not read Accept on this revision).
    expect(fast.fastAnswers - before).toBe(1);
  });

  it('leaves the same journal and the same client report', async () => {
    const journal = async (side: Side) => {
      const res = await fetch(`http://127.0.0.1:${side.port}/_sim/journal?limit=1000`);
      expect(res.status).toBe(200);
      // Durations are the machine's, not the answer's; an OAuth access token is drawn at random on
      // each side (its hint with it), and so are the sign-in's codes: its exchanges are left out.
      const { data } = (await res.json()) as { data: Json[] };
      const text = JSON.stringify(data.filter((entry) => entry.operationId !== 'oauth'));
      return text.replace(/"durationMs":[\d.]+/g, '"durationMs":0').replace(/sim_at_…[A-Za-z0-9_-]{4}/g, 'sim_at_…');
    };
    const [a, b] = [await journal(fast), await journal(sdk)];
    expect(a.length).toBeGreaterThan(1000);
    expect(a, whereApart(a, b)).toEqual(b);
    const accountId = (JSON.parse(a) as Json[]).find((entry) => entry.accountId)!.accountId as string;
    const report = (side: Side) => JSON.stringify(side.simulator.clientReport(accountId));
    expect(report(fast)).toMatch(/"findings":\[\{/);
    expect(report(fast)).toEqual(report(sdk));
  });
});

describe('the rate limits count the fast path as the SDK path', () => {
  it('the same 429s at the same calls', async () => {
    const [limitedFast, limitedSdk] = await Promise.all([serveSide(true, { rateLimits: { perKey: { default: 4 } } }), serveSide(false, { rateLimits: { perKey: { default: 4 } } })]);
    const [savedFast, savedSdk] = [fast, sdk];
    [fast, sdk] = [limitedFast, limitedSdk];
    try {
      const answers: RawAnswer[] = [];
      for (let i = 0; i < 3; i++) answers.push(await both({ method: 'tools/list', params: {} }));
      for (let i = 0; i < 2; i++) answers.push(await tool('getTokenBalance', {}));
      answers.push(await both({ method: 'tools/list', params: {} }));
      // The fourth message is the last of the minute: then the engine's 429 as a tool result, and the endpoint's own.
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(answers[4]!.body).toContain('RATE_LIMITED');
      expect(fast.fastAnswers).toBe(5);
    } finally {
      [fast, sdk] = [savedFast, savedSdk];
      await Promise.all([limitedFast.close(), limitedSdk.close()]);
    }
  });
});

describe("the SDK's own client on 2026-07-28", () => {
  it('is served by the fast path, and reads the same results as from the SDK path', async () => {
    const sides = await Promise.all([serveSide(true), serveSide(false)]);
    try {
      const seen: unknown[][] = [];
      for (const side of sides) {
        const client = new Client({ name: 'compare', version: '1' }, { versionNegotiation: { mode: { pin: VERSION } } });
        const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${side.port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${side.simulator.keys.readWrite}` } } });
        await client.connect(transport);
        seen.push([(await client.listTools()).tools.length, await client.callTool({ name: 'getTokenBalance', arguments: {} }), await client.callTool({ name: 'getBuild', arguments: { buildId: 'nope' } })]);
        await client.close();
        if (side === sides[0]) expect(side.fastAnswers).toBe(3);
      }
      expect(seen[0]).toEqual(seen[1]);
      expect(seen[0]![1]).toMatchObject({ structuredContent: { balance: 100 } });
      // Its discovery goes through the SDK; the list and both calls through the fast path (checked above).
    } finally {
      await Promise.all(sides.map((side) => side.close()));
    }
  });
});

