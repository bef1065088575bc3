/**
 * Many runs beside one server come from one address, and an authorization server slows
 * registrations and token calls per address: the suite's OAuth checks wait out a 429 as its
 * Retry-After says, as a well-behaved client does, instead of failing the server.
 */
import { expect, it } from 'vitest';
import { SuiteRun } from '../contracts/suite/runner.js';
import { config } from './violations/suite-run.js';
import { simulatorUnderTest } from './violations/violated-simulator.js';

it('waits out a 429 of the registration and token endpoints, and passes', async () => {
  const refused: string[] = [];
  const target = simulatorUnderTest({
    id: 'slow-down-once',
    description: 'the first registration and the first token call answered 429 slow_down',
    rule: '',
    wrap: (handle) => (request) => {
      const path = new URL(request.url, 'http://x').pathname;
      if (request.method === 'POST' && (path === '/oauth/register' || path === '/oauth/token') && !refused.includes(path)) {
        refused.push(path);
        const body = JSON.stringify({ error: 'slow_down', error_description: 'Too many requests: retry in 1 s.' });
        return { status: 429, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'retry-after': '1' }, body, log: { correlationId: 'corr_0' } };
      }
      return handle(request);
    },
  });
  const run = await SuiteRun.open(config(), target.fetch);
  const failed: string[] = [];
  for (const check of run.checks.filter((c) => c.id.startsWith('oauth.'))) {
    const result = await run.run(check);
    if (result.status === 'failed') failed.push(`${check.id}: ${result.message}`);
  }
  await run.finish();
  expect(refused.sort()).toEqual(['/oauth/register', '/oauth/token']);
  expect(failed).toEqual([]);
}, 120_000);
