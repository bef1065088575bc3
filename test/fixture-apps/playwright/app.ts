import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

export const APP = 'https://app.example.test';
const pageModule = readFileSync(new URL('../builds-page.js', import.meta.url));

/** Serves the front end (its page and its module) at APP, and opens it with the worker's key. */
export async function openApp(page: Page, key: string): Promise<void> {
  await page.route(`${APP}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/builds-page.js') return route.fulfill({ contentType: 'text/javascript', body: pageModule });
    return route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><title>Builds</title><main>loading</main>
<script type="module">
import { renderBuildsPage } from './builds-page.js';
const main = document.querySelector('main');
main.innerHTML = await renderBuildsPage(fetch, 'https://api.example.test', decodeURIComponent(location.hash.slice(1)));
main.dataset.ready = 'yes';
</script>`,
    });
  });
  await page.goto(`${APP}/#${encodeURIComponent(key)}`);
  await page.locator('main[data-ready="yes"]').waitFor();
}
