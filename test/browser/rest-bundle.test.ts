/**
 * The REST-only browser bundle (content-service-simulator/msw/rest): under 165 KB gzipped (the
 * client report, which msw users read in-process, is about 8 KB of it), with
 * none of the MCP SDK, zod or ajv's compiler in it, and the flow answered through it in Chromium
 * under `Content-Security-Policy: script-src 'self'`, every answer valid against the contracts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRestBundle, type RestBundle } from '../../scripts/bundle-browser.js';
import { browserMissing, sharedBrowser } from '../support/browser.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';

const root = join(import.meta.dirname, '../..');
const POLICY = "default-src 'self'; script-src 'self'; worker-src 'self'";
const shared = sharedBrowser();

let rest: RestBundle;
let server: Server;
let origin = '';

beforeAll(async () => {
  rest = await buildRestBundle();
  const file = join(mkdtempSync(join(tmpdir(), 'rest-bundle-')), 'msw-rest.js');
  writeFileSync(file, rest.code);
  // The page imports the bundle by its package path, as an application would.
  const page = await build({
    entryPoints: [join(import.meta.dirname, 'csp-rest-entry.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    logLevel: 'error',
    // The bundle sits in a temporary folder: its `msw` is the page's, from this package's node_modules.
    nodePaths: [join(root, 'node_modules')],
    plugins: [{ name: 'package-path', setup: (b) => void b.onResolve({ filter: /adapters\/msw-rest\.js$/ }, () => ({ path: file })) }],
  });
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    '/': { type: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>REST bundle</title><script type="module" src="/app.js"></script>' },
    '/app.js': { type: 'text/javascript', body: page.outputFiles[0]!.contents },
    '/mockServiceWorker.js': { type: 'text/javascript', body: readFileSync(join(root, 'node_modules/msw/lib/mockServiceWorker.js')) },
  };
  server = createServer((req, res) => {
    const found = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!found) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': found.type, 'content-security-policy': POLICY, 'cache-control': 'no-store' });
    res.end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

describe.skipIf(repeatRun)('the REST-only browser bundle', () => {
  it('is under 165 KB gzipped and carries no MCP SDK, zod or ajv compiler', () => {
    expect(rest.gzipBytes).toBeLessThan(165_000);
    expect(rest.packages.filter((p) => /^(zod|@modelcontextprotocol\/.*)$/.test(p))).toEqual([]);
    // Of ajv, only the runtime helpers the generated validators call; no compiler.
    expect(rest.inputs.filter((f) => /node_modules\/ajv(-formats)?\//.test(f) && !/ajv\/dist\/runtime\/|ajv-formats\/dist\/formats\.js/.test(f))).toEqual([]);
    expect(rest.inputs.filter((f) => /^src\/(mcp|app\/(lazy-mcp|docs-page|static-pages))/.test(f))).toEqual([]);
    expect(new TextDecoder().decode(rest.code)).not.toContain('wants to use the Content Generation Service as you');
  });

  it.skipIf(browserMissing)('answers the flow in Chromium under script-src self', async () => {
    const page = await shared.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'outcome' in window, undefined, { timeout: 30_000 });
    const outcome = await page.evaluate(() => (window as unknown as { outcome: Promise<unknown> }).outcome) as {
      evalBlocked: boolean; violations: string[]; error?: string;
      replies: Array<{ method: string; path: string; status: number; headers: Record<string, string>; text: string }>;
    };
    expect(outcome.error).toBeUndefined();
    expect(errors).toEqual([]);
    expect(outcome.evalBlocked).toBe(true);
    expect(outcome.violations.filter((v) => !v.startsWith('script-src: eval'))).toEqual([]);
    expect(outcome.replies.map((r) => r.status)).toEqual([200, 200, 200, 400, 201, 200, 400]);
    for (const r of outcome.replies) assertContract({ method: r.method, url: r.path, status: r.status, headers: r.headers, body: r.text });
    const builds = JSON.parse(outcome.replies[0]!.text) as { data: Array<{ status: string }> };
    expect(builds.data.map((b) => b.status).sort()).toEqual(['completed', 'critiquing', 'drafting', 'failed', 'merging', 'pending', 'researching']);
    expect(outcome.replies[2]!.text).toMatch(/^# /);
    expect(JSON.parse(outcome.replies[5]!.text).data.map((s: { scenario: string }) => s.scenario)).toEqual(['build-in-every-state', 'empty-balance']);
    expect(JSON.parse(outcome.replies[6]!.text).error).toContain('restores no snapshot');
  }, 90_000);
});
