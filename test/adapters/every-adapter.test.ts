/**
 * One script (surface-script.ts) through every way the simulator is served: node:http (the
 * CLI's listener), express, msw in Node, msw in Chromium, and the app under Bun and Deno.
 * Each must answer the same: health, a REST flow, an MCP tool call, an OAuth token
 * exchange, and a journal with the same entries.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import { createMswHandlers } from '../../src/adapters/msw.js';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { browserMissing, launchChromium } from '../support/browser.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';
import { missing, tools } from '../support/requirements.js';
import { T0 } from '../support/harness.js';
import { runSurfaceScript, type Reply } from './surface-script.js';

const root = join(import.meta.dirname, '../..');
const cleanups: Array<() => unknown> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** What every adapter must answer, and the journal lines that must be the same everywhere. */
function judge(replies: Reply[]): string[] {
  expect(replies.map((r) => `${r.step} ${r.status}`)).toEqual(['health 200', 'balance 200', 'target 201', 'mcp 200', 'mint 201', 'oauth 200', 'journal 200']);
  for (const r of replies) {
    if (r.step !== 'mcp' && r.step !== 'oauth') assertContract({ method: r.method, url: r.path, status: r.status, headers: r.headers, body: r.text });
  }
  const byStep = Object.fromEntries(replies.map((r) => [r.step, r]));
  expect(JSON.parse(byStep.balance!.text)).toMatchObject({ balance: 100 });
  const mcp = JSON.parse(byStep.mcp!.text) as { result: { structuredContent: { data: Array<{ slug: string }> }; isError?: boolean } };
  expect(mcp.result.isError).toBeUndefined();
  expect(mcp.result.structuredContent.data.map((t) => t.slug)).toEqual(['acme']);
  expect(JSON.parse(byStep.oauth!.text)).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^sim_at_/) });
  const journal = JSON.parse(byStep.journal!.text) as { data: Array<{ method: string; url: string; status: number; operationId: string | null }> };
  return journal.data.map((e) => `${e.method} ${e.url} ${e.status} ${e.operationId}`).reverse();
}

/** A node:http server on loopback whose simulator knows its own address (the OAuth issuer, MCP's allowed host). */
async function serve(listener: (simulator: Simulator) => RequestListener): Promise<{ base: string; key: string }> {
  let handle: RequestListener = (_req, res) => void res.writeHead(503).end();
  const server: Server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const simulator = createSimulator({ frozenAt: T0, publicUrl: base, onFault: () => {} });
  handle = listener(simulator);
  return { base, key: simulator.keys.readWrite };
}

const journals = new Map<string, string[]>();
/** The journal every adapter must show: the first adapter's, checked against the others'. */
function sameJournal(adapter: string, lines: string[]): void {
  journals.set(adapter, lines);
  expect(lines).toEqual([...journals.values()][0]);
}

describe('every adapter and runtime, through one script', () => {
  it('node:http (the CLI listener)', async () => {
    const { base, key } = await serve((simulator) => createNodeHandler(simulator));
    const lines = judge(await runSurfaceScript(base, key));
    // The REST calls, the MCP tool call as the operation it stands for, and both OAuth steps.
    expect(lines).toEqual([
      'GET /api/v1/tokens/balance 200 getTokenBalance',
      'POST /api/v1/targets 201 createTarget',
      'GET /api/v1/targets 200 listTargets',
      'POST /_sim/oauth/tokens 201 mintOAuthTokens',
      'POST /oauth/token 200 oauth',
    ]);
    sameJournal('node:http', lines);
  });

  it('express', async () => {
    const { base, key } = await serve((simulator) => createExpressApp(simulator) as RequestListener);
    sameJournal('express', judge(await runSurfaceScript(base, key)));
  });

  it('msw in Node', async () => {
    const base = 'http://sim.test';
    const simulator = createSimulator({ frozenAt: T0, publicUrl: base, onFault: () => {} });
    const server = setupServer(...createMswHandlers(simulator, { baseUrl: base }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      sameJournal('msw in Node', judge(await runSurfaceScript(base, simulator.keys.readWrite)));
    } finally {
      server.close();
    }
  });

  describe.skipIf(repeatRun || browserMissing)('msw in Chromium', () => {
    it('serves the whole surface from a service worker', async () => {
      const bundle = await build({ entryPoints: [join(import.meta.dirname, 'browser-entry.ts')], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error' });
      const files: Record<string, { type: string; body: string | Uint8Array }> = {
        '/': { type: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>every adapter</title><script type="module" src="/app.js"></script>' },
        '/app.js': { type: 'text/javascript', body: bundle.outputFiles[0]!.contents },
        '/mockServiceWorker.js': { type: 'text/javascript', body: readFileSync(join(root, 'node_modules/msw/lib/mockServiceWorker.js')) },
      };
      const server = createServer((req, res) => {
        const file = files[new URL(req.url ?? '/', 'http://x').pathname];
        if (!file) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => server.close(resolve)));
      const browser = await launchChromium();
      cleanups.push(() => browser.close());
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.waitForFunction(() => 'outcome' in window, undefined, { timeout: 30_000 });
      const outcome = (await page.evaluate(() => (window as unknown as { outcome: Promise<unknown> }).outcome)) as { replies?: Reply[]; error?: string };
      expect(outcome.error).toBeUndefined();
      sameJournal('msw in Chromium', judge(outcome.replies!));
    }, 90_000);
  });

  for (const [name, tool, binary, args] of [
    ['Bun', 'bun', tools.bun ?? 'bun', (file: string, port: number) => [file, String(port)]],
    ['Deno', 'deno', tools.deno ?? 'deno', (file: string, port: number) => ['run', '--allow-all', '--quiet', file, String(port)]],
  ] as const) {
    const absent = missing(tool);
    describe.skipIf(repeatRun || absent)(`the app under ${name}${absent ? ` (${absent})` : ''}`, () => {
      it(`answers from ${name}'s own server`, async () => {
        const file = await bundleForRuntime();
        const port = await freePort();
        const child = spawn(binary, args(file, port), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(tmpdir(), 'deno-cache'), DO_NOT_TRACK: '1' } });
        cleanups.push(() => child.kill('SIGKILL'));
        const { listening, key } = await firstLine(child);
        sameJournal(name, judge(await runSurfaceScript(listening, key)));
      }, 60_000);
    });
  }
});

let runtimeBundle: string | undefined;
/** The runtime entry and the whole simulator in one ES module, as a Bun or Deno user would ship it. */
async function bundleForRuntime(): Promise<string> {
  if (runtimeBundle) return runtimeBundle;
  const out = await build({
    entryPoints: [join(import.meta.dirname, 'runtime-server.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'error',
    // CommonJS dependencies inside an ES module still call require for Node's built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  runtimeBundle = join(mkdtempSync(join(tmpdir(), 'sim-runtime-')), 'server.mjs');
  writeFileSync(runtimeBundle, out.outputFiles[0]!.contents);
  return runtimeBundle;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function firstLine(child: ChildProcess): Promise<{ listening: string; key: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no answer in 30 s: ${err.slice(0, 2000)}`)), 30_000);
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { listening: string; key: string });
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err.slice(0, 2000)}`)));
  });
}
