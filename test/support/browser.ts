import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core: never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** CI installs chromium (.ci/run), so there browser tests always run; elsewhere they need it installed. */
export const browserMissing = !existsSync(CHROMIUM) && !process.env.CI;

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...extraArgs, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
