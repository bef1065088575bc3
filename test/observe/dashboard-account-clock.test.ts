import { describe, expect, it } from 'vitest';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { serve } from './support.js';

const shared = sharedBrowser();

describe.skipIf(browserMissing)(`an account's clock on the dashboard in ${CHROMIUM}`, () => {
  it('gives an account its own clock, advances, resumes and drops it, and leaves the simulator\'s alone', async () => {
    const start = Date.UTC(2026, 0, 5, 9);
    const s = await serve({ frozenAt: start });
    try {
      const page = await shared.browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(String(e)));
      const me = await s.account(50);
      await page.goto(`${s.base}/`);
      const cell = page.locator(`#accounts tr[data-account-id="${me.id}"] td.account-clock`);
      await expect.poll(async () => (await cell.textContent()) ?? '', { timeout: 15_000 }).toContain("simulator's");

      await cell.locator('.account-clock-own').click({ timeout: 15_000 });
      await expect.poll(async () => (await cell.textContent()) ?? '', { timeout: 10_000 }).toContain('2026-01-05 09:00:00 UTC');
      await cell.locator('.account-clock-advance-hour').click({ timeout: 15_000 });
      await expect.poll(async () => (await cell.textContent()) ?? '', { timeout: 10_000 }).toContain('2026-01-05 10:00:00 UTC');
      expect(s.simulator.internal.store.account(me.id)?.clock?.now()).toBe(start + 3_600_000);
      expect(s.simulator.clock.now()).toBe(start);

      await cell.locator('.account-clock-resume').click({ timeout: 15_000 });
      await expect.poll(async () => (await cell.textContent()) ?? '', { timeout: 10_000 }).toContain('running');
      await cell.locator('.account-clock-drop').click({ timeout: 15_000 });
      await expect.poll(async () => (await cell.textContent()) ?? '', { timeout: 10_000 }).toContain("simulator's");
      expect(s.simulator.internal.store.account(me.id)?.clock).toBeNull();
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await s.close();
    }
  }, 60_000);
});
