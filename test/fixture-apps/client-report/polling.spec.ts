import { expect } from 'vitest';
import { simulatorTest, type SimulatorAccount } from '../../../src/fixtures/vitest.js';

const test = simulatorTest({ simulator: { speed: 'realistic' } });

/** A build to poll, created as the spec asks (with an Idempotency-Key). */
async function startBuild(simulator: SimulatorAccount, slug: string): Promise<string> {
  const json = { 'content-type': 'application/json' };
  const target = await simulator.api('/api/v1/targets', { method: 'POST', headers: json, body: JSON.stringify({ name: slug, slug, description: 'Coffee gear', brandKit: { voice: 'expert', tone: 'warm' } }) });
  expect(target.status).toBe(201);
  const body = { targetId: ((await target.json()) as { id: string }).id, buildType: 'single', kind: 'blog', objective: `Espresso ${slug}`, researchPolicy: 'required' };
  const build = await simulator.api('/api/v1/builds', { method: 'POST', headers: { ...json, 'idempotency-key': `build-${slug}` }, body: JSON.stringify(body) });
  expect(build.status).toBe(202);
  return ((await build.json()) as { buildId: string }).buildId;
}

test('a client that polls every 200 ms', async ({ simulator }) => {
  const buildId = await startBuild(simulator, 'hasty');
  for (let i = 0; i < 4; i++) {
    expect((await simulator.api(`/api/v1/builds/${buildId}`)).status).toBe(200);
    await simulator.advanceClock(200);
  }
  await simulator.expectCleanClient();
});

test('a client that polls every 30 s until the end', async ({ simulator }) => {
  const buildId = await startBuild(simulator, 'patient');
  let status = '';
  while (status !== 'completed') {
    status = ((await (await simulator.api(`/api/v1/builds/${buildId}`)).json()) as { build: { status: string } }).build.status;
    if (status !== 'completed') await simulator.advanceClock(30_000);
  }
  await simulator.expectCleanClient();
});
