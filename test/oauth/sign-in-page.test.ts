import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, CHROMIUM, launchChromium } from '../support/browser.js';
import { oauthRig, type OAuthRig } from './support.js';

/** The sign-in page as a person sees it, in Chromium: read it, mistype the key, approve. */
const REPORTS = fileURLToPath(new URL('../../reports/', import.meta.url));
const REDIRECT = 'http://127.0.0.1:9/callback';

let rig: OAuthRig;
let browser: Browser;

beforeAll(async () => {
  if (browserMissing) return;
  rig = await oauthRig();
  browser = await launchChromium();
  mkdirSync(REPORTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

async function authorizationUrl(): Promise<string> {
  const client = await (
    await fetch(`${rig.base}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'Acme Writing Assistant' }) })
  ).json();
  const url = new URL(`${rig.base}/oauth/authorize`);
  const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, state: 'xyz', scope: 'svc:read svc:write', code_challenge: challenge, code_challenge_method: 'S256' })) {
    url.searchParams.set(k, v);
  }
  return url.href;
}

describe.skipIf(browserMissing)(`the OAuth sign-in page in ${CHROMIUM}`, () => {
  it('shows who asks, where it returns, the scopes; refuses a wrong key; approves with a right one', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    let callback: URL | undefined;
    await page.route('http://127.0.0.1:9/**', async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'signed in' });
    });

    await page.goto(await authorizationUrl());
    await expect(page.locator('h1').innerText()).resolves.toContain('Acme Writing Assistant');
    const text = await page.locator('main').innerText();
    expect(text).toContain('127.0.0.1:9');
    expect(text).toContain('svc:read');
    expect(text).toContain('svc:write');
    const keyField = page.locator('input[type=password]');
    expect(await keyField.getAttribute('name')).toContain('key');
    await page.screenshot({ path: `${REPORTS}oauth-sign-in.png`, fullPage: true });
    expect(errors, errors.join('\n')).toEqual([]);

    await keyField.fill(`svc_live_${'0'.repeat(40)}`);
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('did not sign you in');
    expect(callback).toBeUndefined();
    await page.screenshot({ path: `${REPORTS}oauth-sign-in-wrong-key.png`, fullPage: true });
    // The page comes back with 401, which Chromium reports; nothing else may be logged.
    expect(errors).toEqual([expect.stringContaining('status of 401')]);
    errors.length = 0;

    await page.locator('input[type=password]').fill(rig.simulator.keys.readWrite);
    await page.locator('input[type=password]').press('Enter'); // Enter approves
    await page.waitForURL('http://127.0.0.1:9/**');
    expect(callback?.searchParams.get('state')).toBe('xyz');
    expect(callback?.searchParams.get('iss')).toBe(rig.base);
    expect(callback?.searchParams.get('code')).toMatch(/^sim_ac_/);
    expect(errors, errors.join("\n")).toEqual([]);
    await page.close();
  });

  it('Deny returns access_denied to the client', async () => {
    const page = await browser.newPage();
    let callback: URL | undefined;
    await page.route('http://127.0.0.1:9/**', async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, body: 'denied' });
    });
    await page.goto(await authorizationUrl());
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL('http://127.0.0.1:9/**');
    expect(callback?.searchParams.get('error')).toBe('access_denied');
    await page.close();
  });
});
