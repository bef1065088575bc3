/**
 * The msw handlers in Chromium under `Content-Security-Policy: script-src 'self'`: no eval, so
 * the request validators must be the ones compiled at build time (ajv standalone code).
 * The page script is the handlers and the simulator bundled by esbuild; the worker is msw's.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium } from '../support/browser.js';
import { assertContract } from '../support/contract.js';

const root = join(import.meta.dirname, '../..');
const POLICY = "default-src 'self'; script-src 'self'; worker-src 'self'";

let server: Server;
let origin = '';
let browser: Browser | undefined;

beforeAll(async () => {
  const bundle = await build({ entryPoints: [join(import.meta.dirname, 'csp-entry.ts')], bundle: true, format: 'esm', platform: 'browser', minify: true, write: false, logLevel: 'error' });
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    '/': { type: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>strict CSP</title><script type="module" src="/app.js"></script>' },
    '/app.js': { type: 'text/javascript', body: bundle.outputFiles[0]!.contents },
    '/mockServiceWorker.js': { type: 'text/javascript', body: readFileSync(join(root, 'node_modules/msw/lib/mockServiceWorker.js')) },
  };
  server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-security-policy': POLICY, 'cache-control': 'no-store' });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe.skipIf(browserMissing)('the msw handlers under a strict Content-Security-Policy', () => {
  it('answer through the simulator, validators included, with eval forbidden', async () => {
    browser = await launchChromium();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'outcome' in window, undefined, { timeout: 20_000 });
    const outcome = await page.evaluate(() => (window as unknown as { outcome: Promise<unknown> }).outcome) as {
      evalBlocked: boolean; violations: string[]; error?: string;
      replies: Array<{ method: string; path: string; status: number; headers: Record<string, string>; text: string }>;
    };
    expect(outcome.error).toBeUndefined();
    expect(errors).toEqual([]);
    expect(outcome.evalBlocked).toBe(true); // the policy is in force
    expect(outcome.violations.filter((v) => !v.startsWith('script-src: eval'))).toEqual([]);
    expect(outcome.replies.map((r) => r.status)).toEqual([200, 201, 400, 400]);
    for (const r of outcome.replies) assertContract({ method: r.method, url: r.path, status: r.status, headers: r.headers, body: r.text });
    const refused = JSON.parse(outcome.replies[2]!.text) as { code: string; details: { fields: Array<{ path: string }> } };
    expect(refused.code).toBe('VALIDATION_ERROR');
    expect(refused.details.fields.map((f) => f.path)).toEqual(expect.arrayContaining(['body.name', 'body.slug']));
  }, 60_000);
});
