import { describe, expect, it } from 'vitest';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { assertContract } from '../support/contract.js';
import { serveForThisFile } from './support.js';
import { screenshotPath } from '../support/artifacts.js';

/** The API reference a frontend developer opens: served offline, under a strict CSP, and its try-it console reaches this simulator. */
const shared = sharedBrowser();
const served = serveForThisFile({ speed: 'instant' });

describe('the contract documents and the dashboard\'s files', () => {
  it('are served, each as the control document says', async () => {
    for (const path of ['/', '/dashboard/app.js', '/dashboard/style.css', '/openapi.yaml', '/openapi.json', '/simulator-control.yaml', '/docs', '/docs/scalar.js']) {
      const res = await fetch(`${served.base}${path}`);
      const body = await res.text();
      assertContract({ method: 'GET', url: path, status: res.status, headers: Object.fromEntries(res.headers), body });
      expect(res.status, path).toBe(200);
    }
    const json = await (await fetch(`${served.base}/openapi.json`)).json();
    expect(json.servers).toEqual([{ url: served.base, description: 'This simulator' }]);
    expect(await (await fetch(`${served.base}/openapi.yaml`)).text()).toMatch(/^openapi: 3\.1/);
    // Only the dashboard's own files: nothing else of the package is reachable through its folder.
    for (const path of ['/dashboard/index.html', '/dashboard/../package.json', '/dashboard/%2e%2e/package.json', '/dashboard/App.js']) {
      expect((await fetch(`${served.base}${path}`)).status, path).toBe(404);
    }
  });
});

describe.skipIf(browserMissing)(`the API reference in ${CHROMIUM}`, () => {
  it('loads with no console error and no request leaving this server, and its try-it console calls the simulator', async () => {
    const page = await shared.browser.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    page.on('request', (r) => !r.url().startsWith(served.base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:') && foreign.push(r.url()));
    await page.goto(`${served.base}/docs`);
    await page.getByText('Content Generation Service', { exact: false }).first().waitFor({ timeout: 20_000 });
    await page.getByText('getTokenBalance', { exact: false }).or(page.getByText('token balance', { exact: false })).first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: screenshotPath('docs'), fullPage: false });

    // The console's requests go to the server the contract names: this simulator.
    const answer = await page.evaluate(async (key) => {
      const res = await fetch('/api/v1/tokens/balance', { headers: { Authorization: `Bearer ${key}` } });
      return res.status;
    }, served.simulator.keys.readWrite);
    expect(answer).toBe(200);
    await page.close();
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
  }, 60_000);
});
