import { describe, expect, it } from 'vitest';
import { shippedScenarios } from '../../src/scenarios/shipped.js';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { serve } from './support.js';

/** The dashboard lists the scenarios loaded, their accounts by name, and never their keys. */
const shared = sharedBrowser();

describe.skipIf(browserMissing)(`the dashboard's scenarios in ${CHROMIUM}`, () => {
  it('lists a scenario loaded at start and one loaded through the control API', async () => {
    const s = await serve({ scenarios: [shippedScenarios['full-library']] });
    try {
      const page = await shared.browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(String(e)));
      await page.goto(`${s.base}/`);
      const panel = page.locator('#scenarios');
      await expect.poll(() => panel.textContent(), { timeout: 15_000 }).toContain('full-library');
      const loaded = await s.call('POST', '/_sim/scenarios', { key: null, body: shippedScenarios['rate-limited-key'] });
      expect(loaded.status).toBe(201);
      await expect.poll(() => panel.textContent(), { timeout: 15_000 }).toContain('rate-limited-key');
      const user = loaded.json.accounts.user as { accountId: string; keys: Record<string, string> };
      expect(await panel.locator(`[title="${user.accountId}"]`).textContent()).toBe(`user · ${user.accountId.slice(0, 8)}`);
      expect(await page.content()).not.toContain(user.keys.limited);
      expect(problems).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
