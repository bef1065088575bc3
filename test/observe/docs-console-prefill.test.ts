import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { memoryAssets } from '../../src/app/assets.js';
import { createSimulator } from '../../src/simulator.js';
import { browserMissing, CHROMIUM, launchChromium, sharedBrowser } from '../support/browser.js';
import { assertContract } from '../support/contract.js';
import { serve, serveForThisFile } from './support.js';

/**
 * The API reference's try-it console starts with the seeded read+write key, for whoever opens
 * it on this machine; a page reached any other way, or a simulator that no longer holds the
 * key, starts with an empty token.
 */
const shared = sharedBrowser();
const served = serveForThisFile({ speed: 'instant' });

/** GET /docs over HTTP with the Host header given, checked against the control document. */
function getDocs(base: string, host?: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/docs`, { headers: host ? { host, origin: 'https://elsewhere.example' } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
        try {
          assertContract({ method: 'GET', url: '/docs', status: res.statusCode ?? 0, headers, body });
          resolve({ status: res.statusCode ?? 0, headers, body });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the /docs page and the demo key', () => {
  it('carries the key, never cached, when asked for on loopback by a loopback name', async () => {
    const key = served.simulator.keys.readWrite;
    for (const host of [undefined, `localhost:${new URL(served.base).port}`, `[::1]:${new URL(served.base).port}`]) {
      const page = await getDocs(served.base, host);
      expect(page.status).toBe(200);
      expect(page.body, String(host)).toContain(`"authentication":{"preferredSecurityScheme":"bearerAuth","securitySchemes":{"bearerAuth":{"token":"${key}"}}}`);
      expect(page.headers['cache-control']).toBe('no-store');
      // No other origin's script may read it: the page has no CORS grant.
      expect(page.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('carries no key when the Host names another machine (a rebound domain, a proxy)', async () => {
    for (const host of ['attacker.example', 'attacker.example:4010', '10.0.0.5:4010', 'localhost.attacker.example']) {
      const page = await getDocs(served.base, host);
      expect(page.status).toBe(200);
      expect(page.body, host).not.toContain('svc_live_');
      expect(page.body).not.toContain('authentication');
    }
  });

  it('carries no key for a client on another machine, nor in-process where no address is known', async () => {
    const simulator = createSimulator({ onFault: () => {} });
    const app = createApp(simulator, { assets: memoryAssets({}) });
    const cases = [
      { remoteAddress: '203.0.113.9', host: '127.0.0.1:4010' },
      { remoteAddress: '::ffff:192.168.1.20', host: 'localhost:4010' },
      { remoteAddress: undefined, host: '127.0.0.1:4010' },
    ];
    for (const { remoteAddress, host } of cases) {
      const res = await app.handle({ method: 'GET', url: '/docs', headers: { host }, ...(remoteAddress ? { remoteAddress } : {}) });
      const body = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body);
      assertContract({ method: 'GET', url: '/docs', status: res.status, headers: res.headers, body });
      expect(body, String(remoteAddress)).not.toContain(simulator.keys.readWrite);
      expect(body).not.toContain('authentication');
    }
    const local = await app.handle({ method: 'GET', url: '/docs', headers: { host: '127.0.0.1:4010' }, remoteAddress: '::ffff:127.0.0.1' });
    expect(String(local.body)).toContain(simulator.keys.readWrite);
    await app.close();
  });

  it('carries no key once the simulator no longer holds it (revoked)', async () => {
    const s = await serve({});
    try {
      const key = s.simulator.keys.readWrite;
      expect((await getDocs(s.base)).body).toContain(key);
      const keys = await s.call('GET', '/api/v1/keys?limit=100', { key });
      const own = keys.json.data.find((k: { hint: string }) => k.hint.endsWith(key.slice(-4)));
      expect((await s.call('DELETE', `/api/v1/keys/${own.id}`, { key })).status).toBe(200);
      const page = await getDocs(s.base);
      expect(page.body).not.toContain(key);
      expect(page.body).not.toContain('authentication');
      expect(page.headers['cache-control']).toBe('no-cache');
    } finally {
      await s.close();
    }
  });
});

describe.skipIf(browserMissing)(`the try-it console in ${CHROMIUM}`, () => {
  it('shows the demo key in its Bearer token field on loopback', async () => {
    const page = await shared.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(`${served.base}/docs`);
    const token = page.locator('input[placeholder="Token"]').first();
    await token.waitFor({ state: 'attached', timeout: 20_000 });
    await expect.poll(() => token.inputValue(), { timeout: 10_000 }).toBe(served.simulator.keys.readWrite);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('leaves the field empty when reached by a name that is not loopback', async () => {
    // Chromium resolves every name to this simulator, so the page is asked for as another machine's.
    const other = await launchChromium([`--host-resolver-rules=MAP docs.example 127.0.0.1`]);
    try {
      const page = await other.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`http://docs.example:${new URL(served.base).port}/docs`);
      const token = page.locator('input[placeholder="Token"]').first();
      await token.waitFor({ state: 'attached', timeout: 20_000 });
      expect(await token.inputValue()).toBe('');
      expect(await page.content()).not.toContain(served.simulator.keys.readWrite);
    } finally {
      await other.close();
    }
  }, 60_000);
});
