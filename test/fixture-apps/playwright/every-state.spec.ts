import { expect, shippedScenarios, test } from '../../../src/fixtures/playwright.js';
import { openApp } from './app.js';

test.use({ scenario: shippedScenarios['build-in-every-state'] });

test('the page shows a build in every state', async ({ page, simulator }) => {
  await openApp(page, simulator.key);
  await expect(page.locator('.balance')).toHaveText('20 tokens');
  await expect(page.locator('li[data-status]')).toHaveCount(7);
  for (const status of ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed', 'failed']) await expect(page.locator(`li[data-status="${status}"]`)).toHaveCount(1);
  test.info().annotations.push({ type: 'account', description: simulator.account.accountId });
});
