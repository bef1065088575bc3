import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotPath } from '../support/artifacts.js';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { serve, type Served } from './support.js';

/**
 * The dashboard of a simulator many test runs share: 20 accounts (some named, some not, two on
 * clocks hours ahead), builds across them, and a journal; seen at 1280 px and on a phone.
 * Pictures: test/artifacts/dashboard-shared-{1280,390}.png.
 */
const shared = sharedBrowser();
const HOURS_AHEAD = 5;

let s: Served;
let ahead: { id: string; key: string; buildId: string };
let later: { id: string; key: string; buildId: string };
const unnamed: string[] = [];

async function made(name: string | undefined, body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const created = await s.call('POST', '/_sim/accounts', { key: null, body: { ...(name ? { name } : {}), balance: 60, ...body } });
  expect(created.status).toBe(201);
  return { id: created.json.accountId, key: created.json.keys.readWrite };
}

async function build(key: string, objective: string, idempotencyKey?: string): Promise<string> {
  const target = await s.call('POST', '/api/v1/targets', { key, body: { name: 'Acme', slug: `acme-${Math.random().toString(36).slice(2, 10)}` } });
  const res = await s.call('POST', '/api/v1/builds', { key, body: { targetId: target.json.id, kind: 'blog', objective }, headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {} });
  expect(res.status).toBe(202);
  return res.json.buildId;
}

beforeAll(async () => {
  if (browserMissing) return;
  s = await serve();
  // Made first, on a clock five hours ahead: its build is dated later than the others but is the older one.
  const first = await made('Kitchen CI (clock ahead)', { clock: { offsetMs: HOURS_AHEAD * 3_600_000 } });
  ahead = { ...first, buildId: await build(first.key, 'Made first, on a clock ahead') };
  for (let i = 0; i < 16; i++) {
    if (i % 4 === 3) unnamed.push((await made(undefined)).id);
    else await made(`${['Checkout', 'Search', 'Billing', 'Onboarding'][i % 4]} e2e #${i}`);
  }
  await made('Kitchen nightly', { clock: { offsetMs: -2 * 3_600_000 } });
  s.simulator.clock.advance(60_000);
  const last = await made('Kitchen SDK run');
  later = { ...last, buildId: await build(last.key, 'Made last, on the simulator\'s clock', 'order-test-1') };
}, 60_000);
afterAll(async () => s?.close());

async function dashboard(viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
  const context = await shared.browser.newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.base });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${s.base}/`);
  await page.locator('#accounts tbody tr').first().waitFor({ timeout: 15_000 });
  await page.locator(`#builds tr[data-build-id="${later.buildId}"]`).waitFor({ timeout: 15_000 });
  return { page, problems };
}

const accountRows = (page: Page) => page.locator('#accounts tbody tr[data-account-id]');

describe.skipIf(browserMissing)(`a shared simulator's dashboard in ${CHROMIUM}`, () => {
  it('names every account, unnamed ones by their place; pages them ten at a time, newest first, and filters by name or id', async () => {
    const names = (await s.call('GET', '/_sim/accounts?limit=100', { key: null })).json.data.map((a: { name: string }) => a.name);
    expect(names).toHaveLength(21);
    expect(new Set(names).size).toBe(21);
    const { page, problems } = await dashboard({ width: 1280, height: 900 });
    await expect.poll(() => accountRows(page).count()).toBe(10);
    expect(await page.locator('#accounts-page').textContent()).toBe('1–10 of 21');
    expect(await accountRows(page).first().getAttribute('data-account-id')).toBe(later.id);
    await page.locator('#accounts-next').click();
    await page.locator('#accounts-next').click();
    expect(await page.locator('#accounts-page').textContent()).toBe('21–21 of 21');
    expect(await page.locator('#accounts-next').isDisabled()).toBe(true);
    await page.locator('#account-filter').fill('kitchen');
    await expect.poll(() => accountRows(page).count()).toBe(3);
    expect(await page.locator('#accounts-page').textContent()).toBe('1–3 of 3');
    await page.locator('#account-filter').fill(unnamed[0]!.slice(0, 8));
    await expect.poll(() => accountRows(page).allTextContents()).toEqual([expect.stringMatching(/^Test account \d+/)]);
    await page.locator('#account-filter').fill('');
    // Made from the page with a name.
    await page.locator('#account-name').fill('Made in the dashboard');
    await page.locator('#account-create').click();
    await expect.poll(() => accountRows(page).first().textContent()).toContain('Made in the dashboard');
    expect(await page.locator('#account-made').textContent()).toMatch(/^Made in the dashboard \([0-9a-f]{8}\) made/);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('opens an account to its keys, its quotas and the sections a module registers', async () => {
    const { page, problems } = await dashboard({ width: 1280, height: 900 });
    // As a module of the page would: the same module instance as the page's (one URL).
    await page.evaluate(`import('/dashboard/account-sections.js').then(({ accountSection }) =>
      accountSection({ id: 'probe', title: 'Probe section', render: (account) => document.createTextNode('about ' + account.name) }))`);
    await page.locator(`#accounts tr[data-account-id="${later.id}"] .account-open`).click();
    const view = page.locator(`#accounts .account-view[data-account-id="${later.id}"]`);
    await view.waitFor();
    expect(await view.locator('.account-keys li').count()).toBe(4);
    expect(await view.textContent()).toContain(`svc_live_…${later.key.slice(-4)}`);
    expect(await view.textContent()).not.toContain(later.key);
    await expect.poll(() => view.locator('[data-section="probe"]').textContent()).toBe('Probe sectionabout Kitchen SDK run');
    await page.locator('#accounts').screenshot({ path: screenshotPath('dashboard-shared-account-view') });
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('orders builds by when they were made, each dated on its account\'s clock and saying so', async () => {
    const { page } = await dashboard({ width: 1280, height: 900 });
    const ids = await page.locator('#builds tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.buildId));
    expect(ids.indexOf(later.buildId)).toBeLessThan(ids.indexOf(ahead.buildId));
    const listed = (await s.call('GET', '/_sim/builds', { key: null })).json.data as Array<{ id: string; createdAt: string }>;
    expect(listed.map((b) => b.id).indexOf(later.buildId)).toBeLessThan(listed.map((b) => b.id).indexOf(ahead.buildId));
    const createdAt = (id: string) => listed.find((b) => b.id === id)!.createdAt;
    const today = new Date(s.simulator.clock.now()).toISOString().slice(0, 10);
    const aheadAt = createdAt(ahead.buildId);
    const aheadRow = page.locator(`#builds tr[data-build-id="${ahead.buildId}"]`);
    expect(await aheadRow.locator('td.created').textContent()).toBe(`${aheadAt.startsWith(today) ? '' : `${aheadAt.slice(0, 10)} `}${aheadAt.slice(11, 19)} own clock +${HOURS_AHEAD} h`);
    expect(await page.locator(`#builds tr[data-build-id="${later.buildId}"] td.created`).textContent()).toBe(createdAt(later.buildId).slice(11, 19));
    expect(await aheadRow.locator('td.account-name').textContent()).toBe('Kitchen CI (clock ahead)');
    await page.context().close();
  }, 60_000);

  it('opens a journal entry to its headers and bodies, redacted, and copies it as curl with $KEY for the key', async () => {
    const { page, problems } = await dashboard({ width: 1280, height: 900 });
    const row = page.locator('#journal-rows tbody tr', { hasText: 'createBuild' }).filter({ hasText: `…${later.key.slice(-4)}` });
    await row.first().click();
    const details = page.locator('#journal-rows tr.details');
    await details.locator('table.headers').first().waitFor({ timeout: 10_000 });
    const text = await details.textContent();
    expect(text).toContain(`Bearer svc_live_…${later.key.slice(-4)}`);
    expect(text).toContain('idempotency-key');
    expect(text).toContain('x-ratelimit-remaining');
    expect(text).toContain('"objective": "Made last, on the simulator\'s clock"');
    const curl = (await details.locator('pre.curl').textContent())!;
    expect(curl).toContain(`curl -X POST '${s.base}/api/v1/builds'`);
    expect(curl).toContain('-H "Authorization: Bearer $KEY"');
    expect(curl).toContain("-H 'idempotency-key: order-test-1'");
    expect(curl).toContain(`--data-raw '{"targetId":"`);
    expect(curl).toContain(`svc_live_…${later.key.slice(-4)}`);
    expect(curl).not.toContain(later.key);
    await details.locator('button.copy-curl').click();
    await expect.poll(() => details.locator('button.copy-curl').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(curl);
    // Still open after the page's redraws.
    await page.waitForTimeout(1500);
    expect(await details.locator('pre.curl').count()).toBe(1);
    await page.locator('#journal').screenshot({ path: screenshotPath('dashboard-shared-journal-entry') });
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);

  it.each([{ width: 1280, height: 900 }, { width: 390, height: 844 }])('at $width px: builds\' and journal\'s status in view, no page wider than the window; pictured', async (viewport) => {
    const { page, problems } = await dashboard(viewport);
    await page.locator('#journal-rows tbody tr').first().waitFor({ timeout: 10_000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: screenshotPath(`dashboard-shared-${viewport.width}`), fullPage: true });
    // Read in one go: the builds' table is redrawn as their progress moves.
    const rights = await page.evaluate(() => ['#builds tbody tr:first-child .badge', '#journal-rows tbody tr:first-child .badge'].map((status) => document.querySelector(status)?.getBoundingClientRect().right));
    for (const right of rights) expect(right).toBeGreaterThan(0);
    for (const right of rights) expect(right).toBeLessThanOrEqual(viewport.width);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    // The accounts' columns fit: nothing of them is off to the side, on a phone either.
    expect(await page.locator('#accounts .accounts-table').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    // Every row of the page in view at once: no box of two rows.
    await expect.poll(() => accountRows(page).count()).toBe(10);
    const [last, table] = await page.locator('#accounts .accounts-table').evaluate((box) => [box.querySelector('tbody tr:last-child')!.getBoundingClientRect().bottom, box.getBoundingClientRect().bottom]);
    expect(last).toBeLessThanOrEqual(table! + 1);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
