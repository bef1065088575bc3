import { expect } from 'vitest';
import { shippedScenarios, simulatorTest } from '../../../src/fixtures/vitest.js';
import { renderBuildsPage } from '../builds-page.js';
import { record } from './record.js';

const test = simulatorTest({ scenario: shippedScenarios['build-in-every-state'] });

test('the page shows a build in every state', async ({ simulator }) => {
  const html = await renderBuildsPage(simulator.fetch, simulator.baseUrl, simulator.key);
  for (const status of ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed', 'failed']) expect(html).toContain(`data-status="${status}"`);
  expect(html).toContain('20 tokens');
  // The worker's own clock: a minute on, every build still running has finished (the failed one stays failed).
  await simulator.advanceClock(600_000);
  const later = await renderBuildsPage(simulator.fetch, simulator.baseUrl, simulator.key);
  expect(later.match(/data-status="completed"/g)).toHaveLength(6);
  await record('every-state', html);
});
