import { expect, shippedScenarios, test } from '../../../src/fixtures/playwright.js';
import { openApp } from './app.js';

test.use({ scenario: shippedScenarios['empty-balance'] });

test('the page shows an empty balance and no builds', async ({ page, simulator }) => {
  await openApp(page, simulator.key);
  await expect(page.locator('.balance')).toHaveText('0 tokens');
  await expect(page.locator('.empty')).toHaveText('No builds yet');
  await expect(page.locator('li[data-status]')).toHaveCount(0);
  test.info().annotations.push({ type: 'account', description: simulator.account.accountId });
});
