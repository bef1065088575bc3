import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildSea, type SeaBuild } from '../../scripts/sea/build.js';
import { signedInClient } from '../oauth/support.js';
import { ensureRuntimes, runtimes } from '../support/runtimes.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';

/**
 * `content-sim` as one executable file (scripts/sea/build.ts), run from a directory of its own
 * with no `node` anywhere on PATH: the API, /mcp, /docs and the dashboard all come out of it.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const node26 = join(repeatRun ? runtimes : ensureRuntimes(), 'node26/bin/node');
const skipReason = repeatRun
  ? 'a repeat run on another Node'
  : process.platform !== 'linux' || process.arch !== 'x64'
    ? `the single executable is built and tested on Linux x64, not ${process.platform} ${process.arch}`
    : !existsSync(node26)
      ? 'Node 26 (test/runtimes, installed when a test first needs it) is missing'
      : undefined;
if (skipReason) console.warn(`single executable test skipped: ${skipReason}`);

const operationIds = Object.values(parse(readFileSync(`${root}openapi.yaml`, 'utf8')).paths as Record<string, Record<string, { operationId?: string }>>).flatMap((item) =>
  ['get', 'post', 'patch', 'put', 'delete'].flatMap((method) => item[method]?.operationId ?? []),
);

let workDir: string;
let build: SeaBuild;
let child: ChildProcess | undefined;
let stderr = '';
let base: string;
let key: string;
/** Only the directory holding the executable: no node, no npm, no shell tools. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  if (skipReason) return;
  workDir = mkdtempSync(join(tmpdir(), 'content-sim-sea-'));
  build = await buildSea({ outDir: join(workDir, 'out'), node: node26 });
  const runDir = join(workDir, 'run');
  mkdirSync(runDir);
  const executable = join(runDir, 'content-sim');
  copyFileSync(build.executable, executable);
  chmodSync(executable, 0o755);
  env = { PATH: runDir, HOME: runDir, LANG: 'C' };
  child = spawn(executable, ['serve', '--host', '127.0.0.1', '--port', '0', '--quiet'], { cwd: runDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const banner = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner in 15 s: ${out}${stderr}`)), 15_000);
    child!.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('empty account')) (clearTimeout(timer), resolve(out));
    });
    child!.on('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}: ${out}${stderr}`))));
  });
  base = /listening on\s+(http:\/\/\S+)/.exec(banner)![1]!;
  key = /read\+write\s+(svc_live_[0-9a-f]{40})/.exec(banner)![1]!;
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** A call to the executable; every answer is checked against openapi.yaml or simulator-control.yaml. */
async function call(method: string, path: string, options: { bearer?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const headers = Object.fromEntries(res.headers);
  assertContract({ method, url: path, status: res.status, headers, body: text });
  return { status: res.status, headers, text, json: headers['content-type']?.startsWith('application/json') ? JSON.parse(text) : undefined };
}

async function mcpClient(bearer: string): Promise<Client> {
  const client = new Client({ name: 'single-executable-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  return client;
}

describe.skipIf(skipReason !== undefined)('content-sim as a single executable, with no node on PATH', () => {
  it('runs where `which node` finds nothing, with no experimental warning', () => {
    const which = spawnSync('sh', ['-c', 'command -v which'], { encoding: 'utf8' }).stdout.trim();
    expect(which).not.toBe('');
    expect(spawnSync(which, ['node'], { env }).status).not.toBe(0);
    expect(build.format).toBe('elf');
    expect(build.nodeVersion).toMatch(/^v26\./);
    expect(stderr).not.toMatch(/warning/i);
  });

  it('answers the health probes', async () => {
    expect((await call('GET', '/healthz')).status).toBe(200);
    expect((await call('GET', '/readyz')).status).toBe(200);
  });

  it('creates a build with the seeded key, finishes it on the control clock, and downloads it', async () => {
    const target = await call('POST', '/api/v1/targets', { bearer: key, body: { name: 'Standalone', slug: 'standalone' } });
    expect(target.status).toBe(201);
    const created = await call('POST', '/api/v1/builds', { bearer: key, body: { targetId: target.json.id, kind: 'blog', objective: 'Run without Node' } });
    expect(created.status).toBe(202);
    let build = await call('GET', `/api/v1/builds/${created.json.buildId}`, { bearer: key });
    for (let step = 0; step < 10 && build.json.build.status !== 'completed'; step++) {
      expect((await call('POST', '/_sim/clock/advance', { body: { seconds: 600 } })).status).toBe(200);
      build = await call('GET', `/api/v1/builds/${created.json.buildId}`, { bearer: key });
    }
    expect(build.json.build.status).toBe('completed');
    const download = await call('GET', `/api/v1/deliverables/${build.json.deliverables[0].id}/download?format=md`, { bearer: key });
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename=".+\.md"$/);
    expect(download.text.length).toBeGreaterThan(100);
  });

  it('serves /mcp: the official client lists one tool per operation with an API key', async () => {
    const client = await mcpClient(key);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...operationIds, 'waitForBuild'].sort());
    } finally {
      await client.close();
    }
  });

  it('signs an assistant in with OAuth 2.1 (PKCE, the key pasted on its page), and /mcp takes its token', async () => {
    const { tokens } = await signedInClient(base, key, 'Standalone assistant');
    const client = await mcpClient(tokens.access_token);
    try {
      const result = await client.callTool({ name: 'getTokenBalance', arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject({ balance: expect.any(Number) });
    } finally {
      await client.close();
    }
  });

  it('serves /docs, its embedded bundle, the contracts and the dashboard', async () => {
    const docs = await call('GET', '/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('src="/docs/scalar.js"');
    const scalar = await call('GET', '/docs/scalar.js');
    expect(scalar.status).toBe(200);
    expect(scalar.text).toBe(readFileSync(`${root}dist/web/scalar.js`, 'utf8'));
    expect((await call('GET', '/openapi.yaml')).text).toBe(readFileSync(`${root}openapi.yaml`, 'utf8'));
    expect((await call('GET', '/simulator-control.yaml')).text).toBe(readFileSync(`${root}simulator-control.yaml`, 'utf8'));
    const dashboard = await call('GET', '/');
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toBe(readFileSync(`${root}src/web/dashboard/index.html`, 'utf8'));
    const app = await call('GET', '/dashboard/app.js');
    expect(app.text).toBe(readFileSync(`${root}src/web/dashboard/app.js`, 'utf8'));
  });
});
