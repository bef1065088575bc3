import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { browserMissing, CHROMIUM, launchChromium } from '../support/browser.js';
import { assertContract } from '../support/contract.js';

/**
 * A web page a developer happens to visit tries to drive the simulator running on their
 * machine: freeze its clock, mint an account with a billion tokens, read its settings. A
 * real browser, with its real CORS and preflight rules, must let none of it through.
 */
let browser: Browser;
let simulator: Simulator;
const servers: Server[] = [];
const seen: Array<{ method: string; url: string; status: number }> = [];
/** Contract violations, asserted empty at the end (a throw inside the server would only hang the browser). */
const broken: string[] = [];

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The simulator behind its express adapter; every response it sends is checked against the contract. */
function recordingSimulator(): Server {
  const app = createExpressApp(simulator);
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    let written: Record<string, string> = {};
    res.writeHead = ((status: number, headers?: Record<string, string>) => ((written = headers ?? {}), writeHead(status, headers))) as typeof res.writeHead;
    res.write = ((chunk: unknown, ...rest: unknown[]) => (chunk && chunks.push(Buffer.from(chunk as string)), write(chunk, ...rest))) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
      const url = req.url ?? '/';
      const headers = { ...Object.fromEntries(Object.entries(res.getHeaders()).map(([k, v]) => [k, String(v)])), ...written };
      try {
        assertContract({ method: req.method ?? 'GET', url, status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') });
      } catch (error) {
        broken.push(String(error));
      }
      seen.push({ method: req.method ?? 'GET', url, status: res.statusCode });
      return end(chunk, ...rest);
    }) as typeof res.end;
    app(req, res);
  });
}

beforeAll(async () => {
  if (browserMissing) return;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

describe.skipIf(browserMissing)(`a web page of another origin, in ${CHROMIUM}`, () => {
  it('can neither drive the control API nor read it', async () => {
    simulator = createSimulator({ frozenAt: undefined });
    const target = await listen(recordingSimulator());
    const attackerPage = `<!doctype html><title>a page</title>
      <iframe name="sink"></iframe>
      <form id="mint" method="POST" action="${target}/_sim/accounts" enctype="text/plain" target="sink">
        <input name='{"balance":1000000000,"x":"' value='"}'>
      </form>`;
    const attacker = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attackerPage)));
    const accountsBefore = simulator.internal.store.accounts.size;

    const page = await browser.newPage();
    await page.goto(attacker);
    const outcome = await page.evaluate(async (base) => {
      const attempt = async (run: () => Promise<Response>) => {
        try {
          const res = await run();
          return { type: res.type, status: res.status, body: res.type === 'opaque' ? null : await res.text() };
        } catch (error) {
          return { error: String(error) };
        }
      };
      return {
        // A body-less "simple" POST: no preflight, sent as is.
        freeze: await attempt(() => fetch(`${base}/_sim/clock/freeze`, { method: 'POST', mode: 'no-cors' })),
        // JSON needs a preflight, which /_sim refuses.
        mint: await attempt(() => fetch(`${base}/_sim/accounts`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"balance":1000000000}' })),
        // A plain read: sent, but the page may not see the answer.
        read: await attempt(() => fetch(`${base}/_sim`)),
      };
    }, target);
    await page.$eval('#mint', (form) => (form as HTMLFormElement).submit());
    await page.waitForTimeout(300);
    await page.close();

    expect(broken).toEqual([]);
    expect(outcome.freeze).toMatchObject({ type: 'opaque', body: null });
    expect(outcome.mint).toMatchObject({ error: expect.stringMatching(/TypeError/) });
    expect(outcome.read).toMatchObject({ error: expect.stringMatching(/TypeError/) });
    // The requests arrived and were refused: the simple POST and the form for not being JSON, the preflight outright.
    expect(seen).toEqual(expect.arrayContaining([
      { method: 'POST', url: '/_sim/clock/freeze', status: 415 },
      { method: 'OPTIONS', url: '/_sim/accounts', status: 403 },
      { method: 'POST', url: '/_sim/accounts', status: 415 },
    ]));
    expect(seen.some((r) => r.method === 'POST' && r.url === '/_sim/accounts' && r.status === 201)).toBe(false);
    expect(simulator.clock.frozen).toBe(false);
    expect(simulator.internal.store.accounts.size).toBe(accountsBefore);
  });

  it('cannot drive it through DNS rebinding either: same-origin for the browser, refused by its Host', async () => {
    simulator = createSimulator({ frozenAt: undefined });
    const target = await listen(recordingSimulator());
    const port = new URL(target).port;
    // The attacker's domain now resolves to 127.0.0.1: its page and the simulator share an origin.
    const rebinding = await launchChromium(['--host-resolver-rules=MAP rebind.attacker.test 127.0.0.1']);
    try {
      const page = await rebinding.newPage();
      // A page of no policy (our landing page forbids every fetch; the attacker's own page would not).
      await page.goto(`http://rebind.attacker.test:${port}/healthz`);
      const outcome = await page.evaluate(async () => {
        const res = await fetch('/_sim/accounts', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"balance":1000000000}' });
        return { status: res.status, body: await res.json() };
      });
      expect(outcome.status).toBe(403);
      expect(outcome.body.code).toBe('FORBIDDEN');
    } finally {
      await rebinding.close();
    }
    expect(broken).toEqual([]);
    expect(seen).toContainEqual({ method: 'POST', url: '/_sim/accounts', status: 403 });
    expect(simulator.internal.store.accounts.size).toBe(2);
  });

  it('lets a front end of another origin call the service API with its tracing headers, and read what it needs', async () => {
    simulator = createSimulator({ frozenAt: undefined });
    const target = await listen(recordingSimulator());
    const frontEnd = await listen(createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>')));
    const page = await browser.newPage();
    await page.goto(frontEnd);
    const outcome = await page.evaluate(async ({ base, key }) => {
      const res = await fetch(`${base}/api/v1/tokens/balance`, {
        headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'req-1', 'sentry-trace': '0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1', baggage: 'sentry-environment=dev' },
      });
      return { status: res.status, correlation: res.headers.get('x-correlation-id'), remaining: res.headers.get('x-ratelimit-remaining'), body: await res.json() };
    }, { base: target, key: simulator.keys.readWrite });
    await page.close();
    expect(broken).toEqual([]);
    expect(outcome).toMatchObject({ status: 200, correlation: expect.stringMatching(/^corr_/), remaining: expect.stringMatching(/^\d+$/), body: { balance: 100 } });
    expect(seen).toContainEqual({ method: 'OPTIONS', url: '/api/v1/tokens/balance', status: 204 });
  });
});
