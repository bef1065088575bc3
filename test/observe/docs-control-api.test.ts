import { describe, expect, it } from 'vitest';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { assertContract } from '../support/contract.js';
import { serveForThisFile } from './support.js';

/** /docs renders the control API beside the service API: both contracts, each with its console calling this simulator. */
const shared = sharedBrowser();
const served = serveForThisFile({ speed: 'instant' });

describe('the control API in the API reference', () => {
  it('is served as JSON naming this simulator as its server, and the page lists both contracts', async () => {
    const res = await fetch(`${served.base}/simulator-control.json`);
    const body = await res.text();
    assertContract({ method: 'GET', url: '/simulator-control.json', status: res.status, headers: Object.fromEntries(res.headers), body });
    const json = JSON.parse(body);
    expect(json.servers).toEqual([{ url: served.base, description: 'This simulator' }]);
    expect(Object.keys(json.paths)).toContain('/_sim/scenarios');
    const page = await (await fetch(`${served.base}/docs`)).text();
    const configuration = JSON.parse(/data-configuration='([^']*)'/.exec(page)![1]!.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))));
    expect(configuration.sources.map((s: { url: string }) => s.url)).toEqual(['/openapi.json', '/simulator-control.json']);
  });

  it.skipIf(browserMissing)(`renders the control API's operations in ${CHROMIUM}`, async () => {
    const page = await shared.browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
    await page.goto(`${served.base}/docs`);
    await page.getByText('token balance', { exact: false }).first().waitFor({ timeout: 20_000 });
    // The header's document picker, then the control API's own operations.
    await page.getByText('Service API', { exact: true }).first().click();
    await page.getByText('Simulator control API (/_sim)', { exact: true }).first().click();
    await page.getByText('Load a scenario', { exact: false }).first().waitFor({ timeout: 20_000 });
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});
