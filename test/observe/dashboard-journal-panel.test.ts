import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserMissing, CHROMIUM, sharedBrowser } from '../support/browser.js';
import { repeatRun } from '../support/once.js';
import { serve, type Served } from './support.js';
import { screenshotPath } from '../support/artifacts.js';

/**
 * The dashboard's journal as a bounded list: thousands of entries live in a scroll box of
 * fixed height that draws only the rows in view, and the page holds on a phone's width.
 */
const shared = sharedBrowser();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** `count` calls over HTTP, a few at a time, of three kinds (answered, not found, refused), and a clock that moves. */
async function calls(s: Served, count: number, keys: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const key = keys[i % keys.length] as string;
      // The clock moves on now and then: the rows show different times, the rate windows reset.
      if (i % 50 === 49) await s.call('POST', '/_sim/clock/advance', { key: null, body: { seconds: 7 } });
      if (i % 7 === 3) await s.call('GET', `/api/v1/builds/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, { key });
      else if (i % 11 === 5) await s.call('GET', '/api/v1/tokens/balance', { key: null });
      else await s.call('GET', '/api/v1/tokens/balance', { key });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** A page that records any console error, page error or failed request. */
async function open(s: Served, viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
  const page = await shared.browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(`${s.base}/`);
  await page.locator('#clock-now').filter({ hasText: 'UTC' }).waitFor({ timeout: 15_000 });
  return { page, problems };
}

const layout = (page: Page) => page.evaluate(() => {
  const root = document.scrollingElement as Element;
  const rows = document.querySelectorAll('#journal-rows tbody tr');
  return {
    pageWidth: root.scrollWidth,
    pageHeight: root.scrollHeight,
    rowsInDom: rows.length,
    firstSeq: Number((rows[0] as HTMLElement | undefined)?.dataset.seq),
    lastSeq: Number((rows[rows.length - 1] as HTMLElement | undefined)?.dataset.seq),
  };
});

/** Scrolls the journal's box to its end and waits until the drawn rows follow. */
async function scrollJournalToBottom(page: Page): Promise<void> {
  await page.locator('#journal-rows').evaluate((box) => box.scrollTo({ top: box.scrollHeight }));
  await page.waitForFunction(() => {
    const box = document.getElementById('journal-rows') as HTMLElement;
    const rows = box.querySelectorAll('tbody tr');
    const last = rows[rows.length - 1]?.getBoundingClientRect();
    const bottom = box.getBoundingClientRect().bottom;
    return last !== undefined && Math.abs(box.scrollTop + box.clientHeight - box.scrollHeight) < 2 && last.bottom <= bottom + 1 && last.bottom > bottom - 40;
  }, undefined, { timeout: 5_000 });
}

describe.skipIf(browserMissing)(`the dashboard at a phone's width, in ${CHROMIUM}`, () => {
  it('fits 390 px with no sideways scroll of the page: wide tables scroll in their own box', async () => {
    const s = await serve({ frozenAt: Date.UTC(2026, 0, 5, 9) });
    try {
      const { page, problems } = await open(s, PHONE);
      await calls(s, 30, [s.simulator.keys.readWrite]);
      await page.locator('#journal-count', { hasText: '30 entries' }).waitFor({ timeout: 10_000 });
      const { pageWidth } = await layout(page);
      expect(pageWidth).toBeLessThanOrEqual(PHONE.width);
      const sizes = await page.locator('#journal-rows').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
      expect(sizes.scroll).toBeGreaterThan(sizes.client);
      expect(sizes.right).toBeLessThanOrEqual(PHONE.width);
      // The accounts fit the phone: their keys and quotas are in each account's view.
      expect(await page.locator('#accounts .accounts-table').evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
      // Every header link and filter is on screen, none cut off at the right edge.
      for (const control of await page.locator('header a, #journal .filters > *:not([hidden])').all()) {
        const box = await control.boundingBox();
        expect(box && box.x + box.width, await control.textContent() ?? '').toBeLessThanOrEqual(PHONE.width);
      }
      // A filter replays the kept entries that match; the feed stays live.
      await page.locator('#journal-status').fill('401');
      await page.locator('#journal-status').dispatchEvent('change');
      await page.locator('#journal-count', { hasText: /^3 entries/ }).waitFor({ timeout: 10_000 });
      await s.call('GET', '/api/v1/tokens/balance', { key: null });
      await page.locator('#journal-count', { hasText: /^4 entries/ }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#journal-rows tbody tr[data-status="401"]').count()).toBe(4);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe.skipIf(browserMissing || repeatRun)(`the journal with 5,000 entries, in ${CHROMIUM} (first run only)`, () => {
  it('keeps the page short, draws only the rows in view, ends on the oldest entry, and is pictured at 1280 and 390 px', async () => {
    // Limits high enough that most calls are answered, as in a test suite's run.
    const s = await serve({ frozenAt: Date.UTC(2026, 0, 5, 9), journalSize: 6000, rateLimits: { perKey: { default: 400 }, perUser: 800 } });
    try {
      const other = await s.account(50);
      await s.call('POST', '/_sim/faults', { key: null, body: { operationId: 'getTokenBalance', accountId: other.id, response: { status: 503, retryAfterSeconds: 2 }, times: 40 } });
      await calls(s, 5_000, [s.simulator.keys.readWrite, other.key]);
      for (const viewport of [DESKTOP, PHONE]) {
        const kept = s.simulator.internal.journal.query({ limit: 10_000 });
        const newest = kept[0]?.seq as number;
        const oldest = kept[kept.length - 1]?.seq as number;
        const { page, problems } = await open(s, viewport);
        // The replay: every kept entry, newest at the top.
        await page.locator('#journal-count', { hasText: `${kept.length.toLocaleString('en')} entries` }).waitFor({ timeout: 20_000 });
        await page.locator(`#journal-rows tbody tr[data-seq="${newest}"]`).waitFor();
        await page.screenshot({ path: screenshotPath(`dashboard-journal-${viewport.width}`), fullPage: true });
        let seen = await layout(page);
        expect(kept.length).toBeGreaterThanOrEqual(5_000);
        expect(seen.firstSeq).toBe(newest);
        expect(seen.rowsInDom).toBeLessThan(80);
        expect(seen.pageHeight).toBeLessThan(2 * viewport.height);
        expect(seen.pageWidth).toBeLessThanOrEqual(viewport.width);
        // The journal's box is as tall with 5,000 entries as with none shown (a filter nothing
        // matches), and the page within a line of text (the count in the heading).
        const boxHeight = () => page.locator('#journal-rows').evaluate((box) => box.getBoundingClientRect().height);
        const full = await boxHeight();
        await page.locator('#journal-status').fill('599');
        await page.locator('#journal-status').dispatchEvent('change');
        await page.locator('#journal-rows > .empty').waitFor();
        expect(await boxHeight()).toBe(full);
        expect(Math.abs((await layout(page)).pageHeight - seen.pageHeight)).toBeLessThanOrEqual(30);
        await page.locator('#journal-status').fill('');
        await page.locator('#journal-status').dispatchEvent('change');
        await page.locator(`#journal-rows tbody tr[data-seq="${newest}"]`).waitFor({ timeout: 20_000 });

        // The end of the list is the oldest entry kept.
        await scrollJournalToBottom(page);
        seen = await layout(page);
        expect(seen.lastSeq).toBe(oldest);
        expect(seen.rowsInDom).toBeLessThan(80);

        // New calls while the reader is down there: the rows in view stay, a button counts them.
        const before = await page.locator('#journal-rows').evaluate((box) => box.scrollTop);
        await calls(s, 5, [s.simulator.keys.readWrite]);
        await page.locator('#journal-newest', { hasText: '5 more' }).waitFor({ timeout: 10_000 });
        await scrollJournalToBottom(page);
        expect((await layout(page)).lastSeq).toBe(oldest);
        expect(await page.locator('#journal-rows').evaluate((box) => box.scrollTop)).toBeGreaterThan(before);

        // The oldest row opens on its bodies; the details row follows it.
        const last = page.locator(`#journal-rows tbody tr[data-seq="${oldest}"]`);
        await last.click();
        const entry = kept[kept.length - 1];
        await expect.poll(() => page.locator('#journal-rows tr.details').textContent()).toContain(entry?.correlationId);
        await page.locator('#journal-newest').click();
        await expect.poll(async () => (await layout(page)).firstSeq).toBe(newest + 5);
        expect(problems).toEqual([]);
        await page.close();
        await s.call('DELETE', '/_sim/faults', { key: null });
      }
    } finally {
      await s.close();
    }
  }, 180_000);
});
