import { describe, expect, it } from 'vitest';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { serve } from '../observe/support.js';
import { buildBody } from './support.js';

/** The dashboard shows an account's client report in its view, and follows it as it changes. */
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
      // The report is a section of the account's view, opened from its row.
      await page.locator(`#accounts tr[data-account-id="${id}"] .account-open`).click();
      const section = page.locator(`#accounts .account-view[data-account-id="${id}"] [data-section="client-report"]`);
      const row = section.locator('tr[data-rule="create-without-idempotency-key"]');
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('A build created without an Idempotency-Key');
      expect(await row.locator('td.num').textContent()).toBe('2');
      const off = await s.call('PUT', `/_sim/accounts/${id}/client-report/rules`, { key: null, body: { off: ['create-without-idempotency-key'] } });
      expect(off.status).toBe(200);
      await expect.poll(() => section.textContent(), { timeout: 15_000 }).toContain('No rule broken');
      expect(await section.textContent()).toContain('Not judged: create-without-idempotency-key');
      expect(problems).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
