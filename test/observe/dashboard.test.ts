import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { serve, type Served } from './support.js';
import { screenshotPath } from '../support/artifacts.js';

/**
 * The dashboard a new user lands on at the base address, driven in Chromium as a person
 * would: everything it shows comes from the control API, everything it does goes through it.
 */
const shared = sharedBrowser();

/** A page that fails the test on any console error, page error or failed request. */
async function open(served: Served): Promise<{ page: Page; problems: string[] }> {
  const page = await shared.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${served.base}/`);
  await page.locator('#clock-now').filter({ hasText: 'UTC' }).waitFor({ timeout: 15_000 });
  return { page, problems };
}

async function target(s: Served, key: string): Promise<string> {
  const res = await s.call('POST', '/api/v1/targets', { key, body: { name: 'Acme', slug: `acme-${Date.now()}` } });
  return res.json.id as string;
}

describe.skipIf(browserMissing)(`the dashboard in ${CHROMIUM}`, () => {
  it('shows a build made through the REST API move to completed, the call in the journal, and reaches the docs', async () => {
    const s = await serve({ frozenAt: Date.UTC(2026, 0, 5, 9) });
    try {
      const { page, problems } = await open(s);
      const me = await s.account(50);
      await page.locator(`#accounts tr[data-account-id="${me.id}"]`).waitFor();
      const { json } = await s.call('POST', '/api/v1/builds', { key: me.key, body: { targetId: await target(s, me.key), kind: 'blog', objective: 'Explain retries' } });
      const row = page.locator(`#builds tr[data-build-id="${json.buildId}"]`);
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('pending');
      // The journal shows the call live, with the key as its hint only.
      const journalRow = page.locator('#journal tbody tr', { hasText: '/api/v1/builds' }).filter({ hasText: 'createBuild' });
      await journalRow.first().waitFor({ timeout: 10_000 });
      expect(await journalRow.first().textContent()).toContain(`svc_live_…${me.key.slice(-4)}`);
      expect(await page.content()).not.toContain(me.key);
      await journalRow.first().click();
      await expect.poll(() => page.locator('#journal tr.details').textContent()).toContain('Explain retries');

      // The clock, moved from the page, carries the build through its stages to completed.
      await page.locator('#advance-seconds').fill('3600');
      await page.locator('#clock-advance').click();
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('completed');
      expect((await s.call('GET', `/api/v1/builds/${json.buildId}`, { key: me.key })).json.build.status).toBe('completed');
      await page.screenshot({ path: screenshotPath('dashboard-build-completed'), fullPage: true });

      await page.locator('#clock-resume').click();
      await expect.poll(() => page.locator('#clock-state').textContent()).toBe('running');
      expect(s.simulator.clock.frozen).toBe(false);

      await page.locator('header a', { hasText: 'API reference' }).click();
      await page.waitForURL(`${s.base}/docs`);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await s.close();
    }
  }, 60_000);

  it('adds a fault rule that changes the next response, marks it in the journal, and removes it', async () => {
    const s = await serve({ frozenAt: Date.UTC(2026, 0, 5, 9) });
    try {
      const { page, problems } = await open(s);
      const me = await s.account(50);
      await page.locator(`#fault-account option[value="${me.id}"]`).waitFor({ state: 'attached' });
      await page.locator('#fault-operation').fill('getTokenBalance');
      await page.locator('#fault-account').selectOption(me.id);
      await page.locator('#fault-status').selectOption('503');
      await page.locator('#fault-retry-after').fill('7');
      await page.locator('#fault-times').fill('1');
      await page.locator('#fault-add').click();
      const rule = page.locator('#faults tr[data-fault-id]');
      await rule.waitFor();

      const hit = await s.call('GET', '/api/v1/tokens/balance', { key: me.key });
      expect(hit.status).toBe(503);
      expect(hit.headers.get('retry-after')).toBe('7');
      // Another account is untouched by a rule scoped to this one.
      expect((await s.call('GET', '/api/v1/tokens/balance')).status).toBe(200);
      expect((await s.call('GET', '/api/v1/tokens/balance', { key: me.key })).status).toBe(200);

      const injected = page.locator('#journal tbody tr.injected');
      await injected.waitFor({ timeout: 10_000 });
      expect(await injected.textContent()).toContain('503');
      expect(await injected.textContent()).toContain('injected: fault_');
      await page.screenshot({ path: screenshotPath('dashboard-fault'), fullPage: true });

      // The rule ran out after one call; a new one is removed from the page.
      await expect.poll(() => rule.count(), { timeout: 10_000 }).toBe(0);
      await page.locator('#fault-times').fill('');
      await page.locator('#fault-add').click();
      await rule.waitFor();
      await page.locator('#faults .fault-remove').click();
      await expect.poll(() => rule.count(), { timeout: 10_000 }).toBe(0);
      expect(s.simulator.internal.faults.list()).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await s.close();
    }
  }, 60_000);

  it('resets one account from the page, and the journal filter shows only that account', async () => {
    const s = await serve({ frozenAt: Date.UTC(2026, 0, 5, 9) });
    try {
      const { page, problems } = await open(s);
      const me = await s.account(50);
      const other = await s.account(50);
      await s.call('POST', '/api/v1/builds', { key: me.key, body: { targetId: await target(s, me.key), kind: 'blog', objective: 'Mine' } });
      await s.call('POST', '/api/v1/builds', { key: other.key, body: { targetId: await target(s, other.key), kind: 'blog', objective: 'Theirs' } });
      await s.call('GET', '/api/v1/tokens/balance', { key: other.key });
      const mine = page.locator(`#accounts tr[data-account-id="${me.id}"]`);
      await expect.poll(async () => (await mine.locator('td.num').nth(1).textContent())?.trim(), { timeout: 10_000 }).toBe('1');

      await page.locator('#journal-account').selectOption(me.id);
      await expect.poll(() => page.locator('#journal tbody tr').count(), { timeout: 10_000 }).toBe(2);
      expect(await page.locator('#journal tbody').textContent()).not.toContain('getTokenBalance');

      await mine.locator('.account-reset').click();
      await expect.poll(async () => (await mine.locator('td.num').nth(1).textContent())?.trim(), { timeout: 10_000 }).toBe('0');
      expect(s.simulator.internal.store.account(other.id)?.builds.size).toBe(1);
      expect(s.simulator.internal.store.account(me.id)?.builds.size).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await s.close();
    }
  }, 60_000);

  it('asks for the control token when the simulator has one, and works once it is given', async () => {
    const s = await serve({ controlToken: 'a-long-control-token-for-the-test' });
    try {
      const page = await shared.browser.newPage();
      await page.goto(`${s.base}/`);
      await page.locator('#control-token').waitFor({ timeout: 15_000 });
      await page.locator('#control-token').fill('a-long-control-token-for-the-test');
      await page.locator('#notice button').click();
      await page.locator('#clock-now').filter({ hasText: 'UTC' }).waitFor({ timeout: 15_000 });
      await page.locator('#accounts tr[data-account-id]').first().waitFor();
      await page.close();
    } finally {
      await s.close();
    }
  }, 60_000);

  it('says the control API is off with --no-control, and still links to the docs', async () => {
    const s = await serve({ control: false });
    try {
      const page = await shared.browser.newPage();
      await page.goto(`${s.base}/`);
      await page.locator('#notice', { hasText: 'switched off' }).waitFor({ timeout: 15_000 });
      expect(await page.locator('header a[href="/docs"]').count()).toBe(1);
      await page.close();
    } finally {
      await s.close();
    }
  }, 60_000);
});
