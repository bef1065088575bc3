import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, sharedBrowser } from '../support/browser.js';
import { serve, type Served } from './support.js';
import { repeatRun } from '../support/once.js';
import { screenshotPath } from '../support/artifacts.js';

/**
 * The dashboard and /docs as a person sees them on a laptop (1280 px) and a phone (390 px):
 * an account's keys one short line each (on a phone, in the account's view), a scroll box that
 * ends between two rows, a table wider than a phone that says so and reaches its last column, a failed build's stage, and the API
 * reference's Authentication bar with no label over another. Screenshots go to test/artifacts/.
 */
const shared = sharedBrowser();
const WIDTHS = [{ width: 1280, height: 900 }, { width: 390, height: 844 }];

let served: Served;
beforeAll(async () => {
  if (browserMissing) return;
  served = await serve({ speed: 'instant' });
  for (let i = 0; i < 6; i++) {
    const { key } = await served.account(100);
    const target = (await served.call('POST', '/api/v1/targets', { key, body: { name: 'Acme', slug: `acme-${i}` } })).json.id;
    await served.call('POST', '/api/v1/builds', { key, body: { targetId: target, kind: 'blog', objective: `A guide to cold brew, number ${i}` } });
    await served.call('POST', '/api/v1/builds', { key, body: { targetId: target, kind: 'news', objective: `Cold brew news [fail:drafting] ${i}` } });
  }
}, 60_000);
afterAll(async () => served?.close());

async function dashboard(viewport: { width: number; height: number }): Promise<Page> {
  const page = await shared.browser.newPage({ viewport });
  await page.goto(`${served.base}/`);
  await page.locator('#accounts tbody tr').first().waitFor({ timeout: 15_000 });
  await page.locator('#builds tbody tr').first().waitFor({ timeout: 15_000 });
  await page.waitForTimeout(300); // the frame after rendering, when boxes fit their rows
  return page;
}

/** Rows a scroll box shows only in part: none, when it ends between two rows. */
const cutRows = (page: Page, box: string) => page.locator(box).evaluate((el) => {
  const bottom = el.getBoundingClientRect().bottom;
  return [...el.querySelectorAll('tbody > tr')].filter((row) => {
    const r = row.getBoundingClientRect();
    return r.top < bottom - 1 && r.bottom > bottom + 1;
  }).length;
});

describe.skipIf(repeatRun || browserMissing)('the dashboard and /docs at 1280 and 390 px', () => {
  it.each(WIDTHS)('at $width px: each key on one line, no row cut in half, a failed build\'s stage shown', async (viewport) => {
    const page = await dashboard(viewport);
    await page.screenshot({ path: screenshotPath(`dashboard-fit-${viewport.width}`), fullPage: true });
    // A phone shows an account's keys in its view; a laptop in the table too.
    const phone = viewport.width < 600;
    if (phone) await page.locator('#accounts .account-open').first().click();
    const keyHeights = await page.locator(phone ? '#accounts .account-view .key' : '#accounts td.keys .key').evaluateAll((keys) => keys.map((k) => k.getBoundingClientRect().height));
    expect(keyHeights.length).toBeGreaterThanOrEqual(phone ? 4 : 20);
    // The body's line (the page redraws its tables every second; the body stays).
    const lineHeight = await page.locator('body').evaluate((b) => parseFloat(getComputedStyle(b).lineHeight));
    expect(lineHeight).toBeGreaterThan(10);
    expect(Math.max(...keyHeights)).toBeLessThan(lineHeight * 1.5);
    expect(await cutRows(page, '#builds .table-scroll')).toBe(0);
    const failedStages = await page.locator('#builds tr[data-status="failed"] td:nth-child(6)').allTextContents();
    expect(failedStages.length).toBeGreaterThan(0);
    expect(new Set(failedStages)).toEqual(new Set(['drafting']));
    await page.close();
  });

  it('at 390 px: the builds\' table, wider than the phone, says so and scrolls to its last column', async () => {
    const page = await dashboard({ width: 390, height: 844 });
    for (const [section, column] of [['#builds', 'Created']] as const) {
      const box = page.locator(`${section} .table-scroll`);
      await expect.poll(() => page.locator(`${section} .scroll-hint`).isVisible(), { timeout: 10_000 }).toBe(true);
      const header = page.locator(`${section} th`, { hasText: column });
      // Wholly within the box, give or take a pixel of its border.
      const inView = async () => {
        const [b, h] = await Promise.all([box.boundingBox(), header.boundingBox()]);
        return h!.x >= b!.x - 2 && h!.x + h!.width <= b!.x + b!.width + 2;
      };
      expect(await inView(), `${column} starts off-screen`).toBe(false);
      // Swiped to: the column's start at the box's left edge, as far as the box scrolls.
      await header.evaluate((th) => {
        const scroller = th.closest('.table-scroll') as HTMLElement;
        scroller.scrollTo({ left: scroller.scrollLeft + th.getBoundingClientRect().left - scroller.getBoundingClientRect().left });
      });
      await expect.poll(inView, { timeout: 10_000 }).toBe(true);
      // The dashboard redraws every second: the column stays where the reader scrolled to.
      await page.waitForTimeout(2500);
      expect(await inView(), `${column} still in view after the redraws`).toBe(true);
      // At the far right, nothing more to say.
      await box.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect.poll(() => page.locator(`${section} .scroll-hint`).isVisible(), { timeout: 10_000 }).toBe(false);
    }
    await page.close();
  });

  it.each(WIDTHS)('at $width px: /docs\' Authentication bar shows its label and its scheme picker without overlap', async (viewport) => {
    const page = await shared.browser.newPage({ viewport });
    await page.goto(`${served.base}/docs`);
    const label = page.locator('[data-testid="auth-indicator"]').first();
    await label.waitFor({ timeout: 30_000 });
    const bar = label.locator('xpath=ancestor::div[.//button[contains(., "Auth Type")]][1]');
    await bar.screenshot({ path: screenshotPath(`docs-auth-bar-${viewport.width}`) });
    const title = await bar.locator('h2').boundingBox();
    const picker = await bar.locator('button', { hasText: 'Auth Type' }).boundingBox();
    const overlap = title!.x < picker!.x + picker!.width && picker!.x < title!.x + title!.width && title!.y < picker!.y + picker!.height && picker!.y < title!.y + title!.height;
    expect(overlap).toBe(false);
    // The label is drawn whole, not clipped by its own button.
    expect(await label.evaluate((el) => el.getBoundingClientRect().right <= (el.closest('button') as HTMLElement).getBoundingClientRect().right + 0.5)).toBe(true);
    await page.close();
  });
});
