import { chromium, type Browser } from 'playwright-core';
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
