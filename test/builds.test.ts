import { describe, expect, it } from 'vitest';
import { harness } from './support/harness.js';

const ORDER = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed'];

async function pollStatuses(h: ReturnType<typeof harness>, buildId: string, stepMs: number) {
  const seen: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    const res = await h.get(`/api/v1/builds/${buildId}`, { key: h.keys.readOnly });
    const { status } = res.body.build;
    if (seen.at(-1) !== status) seen.push(status);
    expect(res.body.deliverables.length > 0).toBe(status === 'completed');
    if (status === 'completed' || status === 'failed') return seen;
    h.advance(stepMs);
  }
  throw new Error('the build never ended');
}

describe('the build pipeline over HTTP (spec, States and transitions)', () => {
  it('shows every status in the documented order, deliverables only at completion', async () => {
    const h = harness({ speed: 'realistic' });
    const buildId = await h.build({ targetId: await h.target() });
    expect(await pollStatuses(h, buildId, 15_000)).toEqual(ORDER);
  });

  it('takes 3 to 8 minutes at the realistic speed and seconds at the default one', async () => {
    const realistic = harness({ speed: 'realistic' });
    const id = await realistic.build({ targetId: await realistic.target() });
    const build = (await realistic.get(`/api/v1/builds/${id}`)).body.build;
    const minutes = (Date.parse(build.estimatedCompletionAt) - Date.parse(build.createdAt)) / 60_000;
    expect(minutes).toBeGreaterThanOrEqual(3);
    expect(minutes).toBeLessThanOrEqual(8);

    const fast = harness();
    const fastId = await fast.build({ targetId: await fast.target() });
    const fastBuild = (await fast.get(`/api/v1/builds/${fastId}`)).body.build;
    const seconds = (Date.parse(fastBuild.estimatedCompletionAt) - Date.parse(fastBuild.createdAt)) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(3);
    expect(seconds).toBeLessThanOrEqual(8);
  });

  it.each(['researching', 'drafting', 'critiquing', 'merging'])('fails during %s with the [fail:stage] magic input', async (stage) => {
    const h = harness({ speed: 'realistic' });
    const buildId = await h.build({ targetId: await h.target(), objective: `Anything [fail:${stage}]` });
    const seen = await pollStatuses(h, buildId, 5_000);
    expect(seen.at(-1)).toBe('failed');
    expect(seen.slice(0, -1)).toEqual(ORDER.slice(0, ORDER.indexOf(stage) + 1));
    const { build, deliverables } = (await h.get(`/api/v1/builds/${buildId}`)).body;
    expect(deliverables).toEqual([]);
    expect(build.failure.stage).toBe(stage);
    expect(build.completedAt).toBeNull();
    h.advance(60 * 60_000);
    expect((await h.get(`/api/v1/builds/${buildId}`)).body.build.status).toBe('failed');
  });

  it('rejects a fail marker naming no stage', async () => {
    const h = harness();
    const res = await h.post('/api/v1/builds', { targetId: await h.target(), kind: 'blog', objective: 'x [fail:lunch]' });
    expect(res.status).toBe(400);
    expect(res.body.details.fields[0]).toMatchObject({ path: 'body.objective' });
  });

  it('completes at once at the instant speed', async () => {
    const h = harness({ speed: 'instant' });
    const buildId = await h.build({ targetId: await h.target() });
    const res = await h.get(`/api/v1/builds/${buildId}`);
    expect(res.body.build.status).toBe('completed');
    expect(res.body.deliverables).toHaveLength(1);
  });

  it('404 for a deliverable before its build completes', async () => {
    const h = harness({ speed: 'realistic' });
    const buildId = await h.build({ targetId: await h.target() });
    h.advance(10 * 60_000);
    const { deliverables } = (await h.get(`/api/v1/builds/${buildId}`)).body;
    expect((await h.get(`/api/v1/deliverables/${deliverables[0].id}`)).status).toBe(200);

    const later = harness({ speed: 'realistic' });
    const laterBuild = await later.build({ targetId: await later.target() });
    // Same seed, same requests: the same deliverable id, but not yet completed here.
    expect(laterBuild).toBe(buildId);
    const early = await later.get(`/api/v1/deliverables/${deliverables[0].id}`);
    expect(early.status).toBe(404);
  });

  it('a suite has one deliverable per page and costs per page', async () => {
    const h = harness({ speed: 'instant' });
    const targetId = await h.target();
    const res = await h.post('/api/v1/builds', { targetId, kind: 'blog', buildType: 'suite', pages: 4, objective: 'Espresso basics' });
    expect(res.status).toBe(202);
    const { build, deliverables } = (await h.get(`/api/v1/builds/${res.body.buildId}`)).body;
    expect(build.cost).toBe(4);
    expect(deliverables.map((d: { pageIndex: number }) => d.pageIndex)).toEqual([0, 1, 2, 3]);
  });
});
