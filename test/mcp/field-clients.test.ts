import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDocument } from '../../src/contract/openapi.generated.js';
import { readOperations } from '../../src/contract/operations.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';
import { missing } from '../support/requirements.js';
import { ensureRuntimes } from '../support/runtimes.js';
import { mcpRig, type McpRig } from './support.js';

/**
 * The MCP clients people run, against /mcp over HTTP: the 1.x SDK most hosts embed, the 2.x
 * SDK, and the MCP Inspector's CLI (on Node 22, as it requires), each pinned in
 * test/runtimes. Each lists the tools, walks create → poll → download, and receives every
 * kind of tool error as an `isError` result it hands on, never as an exception of its own.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNTIMES = ensureRuntimes();
const NODE22 = `${RUNTIMES}/node22/bin/node`;
const INSPECTOR = `${RUNTIMES}/@modelcontextprotocol/inspector/clients/launcher/build/index.js`;
const SDK_V1 = `${RUNTIMES}/@modelcontextprotocol/sdk`;
const version = (dir: string) => (JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { version: string }).version;

interface ToolResult {
  content: { type: string; text?: string; resource?: { mimeType: string; text?: string } }[];
  structuredContent?: any;
  isError?: boolean;
}

/** One client in the field: it lists tools and calls one with a credential, as its users would. */
interface FieldClient {
  name: string;
  listTools(key: string): Promise<{ name: string }[]>;
  call(key: string, tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

type SdkClient = { connect(t: unknown): Promise<void>; listTools(): Promise<{ tools: { name: string }[] }>; callTool(p: unknown): Promise<unknown>; close(): Promise<void> };

/** An SDK client per credential, connected once and kept, as a host keeps its connection. */
function sdkClient(name: string, connect: (key: string) => Promise<SdkClient>): FieldClient {
  const connected = new Map<string, Promise<SdkClient>>();
  const client = (key: string) => connected.get(key) ?? connected.set(key, connect(key)).get(key)!;
  return {
    name,
    listTools: async (key) => (await (await client(key)).listTools()).tools,
    call: async (key, tool, args) => (await (await client(key)).callTool({ name: tool, arguments: args })) as ToolResult,
    close: async () => void (await Promise.all([...connected.values()].map(async (c) => (await c).close().catch(() => {})))),
  };
}

async function sdkV1(url: string): Promise<FieldClient> {
  const { Client } = (await import(pathToFileURL(`${SDK_V1}/dist/esm/client/index.js`).href)) as { Client: new (info: object) => SdkClient };
  const { StreamableHTTPClientTransport } = (await import(pathToFileURL(`${SDK_V1}/dist/esm/client/streamableHttp.js`).href)) as {
    StreamableHTTPClientTransport: new (url: URL, options: object) => unknown;
  };
  return sdkClient(`@modelcontextprotocol/sdk ${version(SDK_V1)}`, async (key) => {
    const client = new Client({ name: 'field-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    return client;
  });
}

function sdkV2(url: string): FieldClient {
  return sdkClient(`@modelcontextprotocol/client ${version(`${root}node_modules/@modelcontextprotocol/client`)}`, async (key) => {
    const client = new ClientV2({ name: 'field-test', version: '1' });
    await client.connect(new TransportV2(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    return client as unknown as SdkClient;
  });
}

/** The Inspector's CLI, one process per call as a script runs it; its catalog kept in a scratch home. */
function inspectorCli(url: string, home: string): FieldClient & { run(key: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> } {
  const run = (key: string, args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      // Asynchronously: the server answers from this very process.
      execFile(
        NODE22,
        [INSPECTOR, '--cli', url, '--header', `Authorization: Bearer ${key}`, '--format', 'json', ...args],
        { timeout: 60_000, env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json'), NO_COLOR: '1', DO_NOT_TRACK: '1' } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const result = (out: { code: number; stdout: string; stderr: string }) => {
    expect(out.stdout, `exit ${out.code}: ${out.stderr}`).toMatch(/^\{"result":/);
    return (JSON.parse(out.stdout) as { result: any }).result;
  };
  return {
    name: `@modelcontextprotocol/inspector ${version(`${RUNTIMES}/@modelcontextprotocol/inspector`)} --cli`,
    run,
    listTools: async (key) => result(await run(key, ['--method', 'tools/list'])).tools,
    async call(key, tool, args) {
      const out = await run(key, ['--method', 'tools/call', '--tool-name', tool, '--tool-args-json', JSON.stringify(args)]);
      const answer = result(out) as ToolResult;
      // The CLI exits 5 (tool_is_error) on an error result, after printing it: it received it as such.
      expect(out.code, out.stderr).toBe(answer.isError ? 5 : 0);
      if (answer.isError) expect(out.stderr).toContain('"tool_is_error"');
      return answer;
    },
    close: async () => rmSync(home, { recursive: true, force: true }),
  };
}

let rig: McpRig;
beforeAll(async () => (rig = await mcpRig()));
afterAll(async () => rig?.close());

/** A REST or control call whose answer is checked against the contracts, as every answer in a test is. */
async function rest(method: string, path: string, key: string | null, body?: unknown) {
  const res = await fetch(`${rig.baseUrl}${path}`, {
    method,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  assertContract({ method, url: path, status: res.status, headers, body: text });
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** The `{ error, code, details }` of a result that must be an error, and carries nothing a client checks against the success schema. */
function errorOf(result: ToolResult) {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result.content[0]?.type).toBe('text');
  return JSON.parse(result.content[0]!.text!) as { error: string; code: string; details: any };
}

const DRIVERS: [string, (url: string) => Promise<FieldClient>][] = [
  ['sdk 1.x', sdkV1],
  ['client 2.x', async (url) => sdkV2(url)],
  ['inspector cli', async (url) => inspectorCli(url, mkdtempSync(join(tmpdir(), 'inspector-home-')))],
];

describe.skipIf(repeatRun || missing('node22'))('MCP clients in the field, over HTTP', () => {
  describe.each(DRIVERS)('%s', (_, open) => {
    let client: FieldClient;
    let keys: { readWrite: string; readOnly: string };
    let poorKey: string;
    let targetId: string;

    beforeAll(async () => {
      client = await open(`${rig.baseUrl}/mcp`);
      // Fresh accounts: what one client uses up (its build-create window) no other sees.
      keys = (await rest('POST', '/_sim/accounts', null, { name: 'Field client' })).json.keys;
      poorKey = (await rest('POST', '/_sim/accounts', null, { name: 'Field client, no tokens', balance: 0 })).json.keys.readWrite;
    });
    afterAll(async () => client?.close());

    it('lists every tool', async () => {
      const names = (await client.listTools(keys.readWrite)).map((t) => t.name);
      const operations = readOperations(serviceDocument, 'service').map((o) => o.operationId);
      expect(names.sort()).toEqual([...operations, 'waitForBuild'].sort());
    });

    it('creates a target and a build, polls it to the end, downloads its Markdown', async () => {
      const target = await client.call(keys.readWrite, 'createTarget', { name: 'Acme Roasters', slug: 'acme', description: 'Coffee', brandKit: { voice: 'expert', tone: 'warm' } });
      expect(target.isError).toBeFalsy();
      targetId = target.structuredContent.id;
      const created = await client.call(keys.readWrite, 'createBuild', {
        targetId, buildType: 'single', kind: 'blog', objective: 'Cold brew at home', researchPolicy: 'required', idempotencyKey: 'field-flow',
      });
      expect(created.structuredContent).toMatchObject({ buildId: expect.any(String) });
      const { buildId } = created.structuredContent;
      expect((await client.call(keys.readWrite, 'getBuild', { buildId })).structuredContent.build.status).toBe('pending');
      rig.simulator.clock.advance(3_600_000);
      const done = await client.call(keys.readWrite, 'getBuild', { buildId });
      expect(done.structuredContent.build.status).toBe('completed');
      const md = await client.call(keys.readWrite, 'downloadDeliverable', { deliverableId: done.structuredContent.deliverables[0].id, format: 'md' });
      expect(md.isError).toBeFalsy();
      expect(md.content[0]).toMatchObject({ type: 'resource', resource: { mimeType: 'text/markdown', text: expect.stringMatching(/^# /) } });
    });

    it('receives an unknown id as an isError result: NOT_FOUND', async () => {
      const error = errorOf(await client.call(keys.readWrite, 'getBuild', { buildId: '00000000-0000-4000-8000-000000000000' }));
      expect(error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'build' } });
    });

    it('receives invalid input as an isError result: VALIDATION_ERROR naming the field', async () => {
      const error = errorOf(await client.call(keys.readWrite, 'createBuild', { targetId, buildType: 'single', kind: 'blog', researchPolicy: 'required' }));
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(error.details)).toContain('objective');
    });

    it('receives a missing scope as an isError result: SCOPE_REQUIRED', async () => {
      const error = errorOf(await client.call(keys.readOnly, 'createTarget', { name: 'x', slug: 'x', description: 'd', brandKit: { voice: 'v', tone: 't' } }));
      expect(error).toMatchObject({ code: 'SCOPE_REQUIRED', details: { requiredScope: 'svc:write' } });
    });

    it('receives 402 as an isError result: INSUFFICIENT_TOKENS with its arithmetic', async () => {
      const poorTarget = (await rest('POST', '/api/v1/targets', poorKey, { name: 'Poor', slug: 'poor', description: 'd', brandKit: { voice: 'v', tone: 't' } })).json.id;
      const error = errorOf(await client.call(poorKey, 'createBuild', { targetId: poorTarget, buildType: 'single', kind: 'blog', objective: 'x', researchPolicy: 'required' }));
      expect(error).toMatchObject({ code: 'INSUFFICIENT_TOKENS', details: { required: 1, available: 0, shortfall: 1 } });
    });

    it('receives 429 as an isError result: RATE_LIMITED with its retry delay', async () => {
      // Use up the key's build-create window over REST (a refused body still counts), then call.
      let status = 0;
      for (let i = 0; i < 20 && status !== 429; i++) status = (await rest('POST', '/api/v1/builds', keys.readWrite, {})).status;
      expect(status).toBe(429);
      const error = errorOf(await client.call(keys.readWrite, 'createBuild', { targetId, buildType: 'single', kind: 'blog', objective: 'x', researchPolicy: 'required' }));
      expect(error).toMatchObject({ code: 'RATE_LIMITED', details: { bucket: 'key-build-create' } });
      expect(error.details.retryAfterSeconds).toBeGreaterThan(0);
    });
  });

  it('passes the Inspector’s strict schema check: no error, no warning', async () => {
    const inspector = inspectorCli(`${rig.baseUrl}/mcp`, mkdtempSync(join(tmpdir(), 'inspector-home-')));
    try {
      const out = await inspector.run(rig.simulator.keys.readWrite, ['--method', 'tools/list', '--strict']);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stderr).not.toMatch(/^(Error|Warning): tool/m);
      expect(out.stderr).not.toMatch(/\d+ errors?, \d+ warnings?/);
      expect((JSON.parse(out.stdout) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(20);
    } finally {
      await inspector.close();
    }
  });
});
