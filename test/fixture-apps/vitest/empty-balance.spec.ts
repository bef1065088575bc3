import { expect } from 'vitest';
import { shippedScenarios, simulatorTest } from '../../../src/fixtures/vitest.js';
import { renderBuildsPage } from '../builds-page.js';
import { record } from './record.js';

const test = simulatorTest({ scenario: shippedScenarios['empty-balance'] });

test('the page shows an empty balance and no builds', async ({ simulator }) => {
  const html = await renderBuildsPage(simulator.fetch, simulator.baseUrl, simulator.key);
  expect(html).toContain('0 tokens');
  expect(html).toContain('No builds yet');
  const refused = await simulator.api('/api/v1/builds', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ targetId: simulator.account.targets.acme, kind: 'blog', objective: 'One more post' }),
  });
  expect(refused.status).toBe(402);
  await record('empty-balance', html);
});
