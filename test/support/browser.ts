import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { missing } from './requirements.js';

/** Debian's Chromium, driven by playwright-core: never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** CI installs chromium (.ci/run), so there browser tests always run; elsewhere they skip, saying so, without it. */
export const browserMissing = missing('chromium') !== undefined;

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...extraArgs, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * One Chromium for a test file, launched before its tests (when it is installed) and closed
 * after them: `const shared = sharedBrowser();` at the top, then `shared.browser` in tests.
 */
export function sharedBrowser(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!browserMissing) browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser(): Browser {
      if (!browser) throw new Error('Chromium is not running: skip this test where browserMissing');
      return browser;
    },
  };
}
