import { describe, expect, it } from 'vitest';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { serve } from '../observe/support.js';
import { buildBody } from './support.js';

/** The dashboard shows the chosen account's client report, and follows it as it changes. */
const shared = sharedBrowser();

describe.skipIf(browserMissing)(`the dashboard's client report in ${CHROMIUM}`, () => {
  it('shows the rules an account’s client broke, with their counts, and the all-clear once they are off', async () => {
    const s = await serve();
    try {
      const { id, key } = await s.account();
      const target = await s.call('POST', '/api/v1/targets', { key, body: { name: 'T', slug: 't', description: 'Coffee gear', brandKit: { voice: 'expert', tone: 'warm' } } });
      for (const objective of ['Espresso', 'Latte']) expect((await s.call('POST', '/api/v1/builds', { key, body: buildBody(target.json.id, objective) })).status).toBe(202);
      const page = await shared.browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(String(e)));
      await page.goto(`${s.base}/`);
      const select = page.locator('#client-report-account');
      await expect.poll(() => select.locator(`option[value="${id}"]`).count(), { timeout: 15_000 }).toBe(1);
      await select.selectOption(id);
      const row = page.locator('#client-report tr[data-rule="create-without-idempotency-key"]');
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('A build created without an Idempotency-Key');
      expect(await row.locator('td.num').textContent()).toBe('2');
      const off = await s.call('PUT', `/_sim/accounts/${id}/client-report/rules`, { key: null, body: { off: ['create-without-idempotency-key'] } });
      expect(off.status).toBe(200);
      await expect.poll(() => page.locator('#client-report').textContent(), { timeout: 15_000 }).toContain('No rule broken');
      expect(await page.locator('#client-report').textContent()).toContain('Not judged: create-without-idempotency-key');
      expect(problems).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
