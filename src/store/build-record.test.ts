import { describe, expect, it } from 'vitest';
import { CONTENT_KINDS, type TargetSnapshot } from '../content/types.js';
import { planSchedule, scheduleTimes, PIPELINE_STAGES } from '../builds/pipeline.js';
import { Build, type NewBuild } from './build-record.js';
import type { BuildOptions } from './records.js';

const target: TargetSnapshot = { id: 't-1', name: 'Acme', slug: 'acme', description: '', brandKit: {} as TargetSnapshot['brandKit'] };

function newBuild(options: BuildOptions, extra: Partial<NewBuild> = {}): NewBuild {
  const createdAt = Date.UTC(2026, 2, 2, 9);
  const id = `b-${options.kind}-${options.pages}`;
  return {
    ...options,
    id,
    cost: 7,
    correlationId: 'corr_1',
    idempotencyKey: null,
    createdAt,
    schedule: planSchedule({ seed: 's', buildId: id, createdAt, options, speed: 1, failAt: null }),
    target,
    libraryItems: [],
    deliverableIds: Array.from({ length: options.pages }, (_, i) => `d-${i}`),
    ...extra,
  };
}

/** Every combination of the packed options, each kind with one page and with twenty. */
function* everyOption(): Generator<BuildOptions> {
  for (const kind of CONTENT_KINDS) for (const pages of [1, 20]) for (const researchPolicy of ['required', 'optional', 'none'] as const)
    for (const researchMode of ['standard', 'deep'] as const) for (const qualityMode of ['standard', 'premium'] as const) for (const generateImages of [false, true])
      yield { buildType: pages === 1 ? 'single' : 'suite', kind, objective: 'o', researchPolicy, researchMode, qualityMode, pages, generateImages };
}

describe('a compact build', () => {
  it('reads back every option it was given, and saves and restores to the same plain form', () => {
    let count = 0;
    for (const options of everyOption()) {
      const input = newBuild(options);
      const build = new Build(input, input);
      for (const [field, value] of Object.entries(options)) expect((build as unknown as Record<string, unknown>)[field], `${field} of ${JSON.stringify(options)}`).toEqual(value);
      const saved = build.toSaved('a-1');
      expect(saved).toEqual({ ...input, accountId: 'a-1', targetId: target.id, schedule: scheduleTimes(input.schedule) });
      expect(Build.fromSaved(JSON.parse(JSON.stringify(saved))).toSaved('a-1')).toEqual(saved);
      count++;
    }
    expect(count).toBe(CONTENT_KINDS.length * 2 * 3 * 2 * 2 * 2);
  });

  it("gives back the engine's correlation ids and any other exactly, through a save and a restore", () => {
    const options: BuildOptions = { buildType: 'single', kind: 'blog', objective: 'o', researchPolicy: 'none', researchMode: 'standard', qualityMode: 'standard', pages: 1, generateImages: true };
    const engineMade = `corr_${'00ff7a'.repeat(8)}`;
    for (const correlationId of [engineMade, `corr_${'00ff7a'.repeat(4)}`, `corr_${'0f'.repeat(13)}`, `corr_${'0123456789abcdef'.repeat(3)}`, 'corr_1', `corr_${'AB'.repeat(24)}`, 'req-by-hand']) {
      const input = newBuild(options, { correlationId });
      const build = new Build(input, input);
      expect(build.correlationId).toBe(correlationId);
      expect(build.generateImages).toBe(true); // the flag beside the options leaves them as they were
      expect(Build.fromSaved(JSON.parse(JSON.stringify(build.toSaved('a-1')))).correlationId).toBe(correlationId);
    }
  });

  it('keeps its schedule to the millisecond, a failure included', () => {
    const options: BuildOptions = { buildType: 'suite', kind: 'doc', objective: 'o', researchPolicy: 'required', researchMode: 'deep', qualityMode: 'premium', pages: 20, generateImages: true };
    for (const stage of PIPELINE_STAGES) {
      const schedule = planSchedule({ seed: 's', buildId: stage, createdAt: 1_772_442_000_123, options, speed: 1, failAt: { stage, reason: 'r' } });
      const input = newBuild(options, { schedule, createdAt: schedule.createdAt });
      const build = new Build(input, input);
      expect(scheduleTimes(build)).toEqual(scheduleTimes(schedule));
      expect(build.failure).toEqual({ stage, at: schedule.failure!.at, reason: 'r' });
    }
  });

  it('keeps the options few builds have, and finds the page of each deliverable', () => {
    const options: BuildOptions = {
      buildType: 'suite', kind: 'press_release', objective: 'o', researchPolicy: 'none', researchMode: 'standard', qualityMode: 'standard', pages: 3, generateImages: false,
      pressRelease: { boilerplate: 'About Acme' }, libraryItemIds: ['l-1'],
    };
    const libraryItems = [{ id: 'l-1', type: 'cta' as const, name: 'Try', content: 'Try it' }];
    const input = newBuild(options, { libraryItems, idempotencyKey: 'k' });
    const build = new Build(input, input);
    expect(build.pressRelease).toEqual({ boilerplate: 'About Acme' });
    expect(build.libraryItemIds).toEqual(['l-1']);
    expect(build.libraryItems).toEqual(libraryItems);
    expect(build.socialPlatforms).toBeUndefined();
    expect(build.idempotencyKey).toBe('k');
    expect(['d-0', 'd-1', 'd-2', 'd-9'].map((id) => build.pageOf(id))).toEqual([0, 1, 2, -1]);
    const one = newBuild({ ...options, buildType: 'single', pages: 1, pressRelease: undefined, libraryItemIds: undefined });
    const single = new Build(one, one);
    expect(single.deliverableIds).toEqual(['d-0']);
    expect([single.pageOf('d-0'), single.pageOf('d-1')]).toEqual([0, -1]);
    expect(single.libraryItems).toEqual([]);
    expect('pressRelease' in single.toSaved('a-1')).toBe(false);
  });
});
