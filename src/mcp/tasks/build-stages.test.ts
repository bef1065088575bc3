import { describe, expect, it } from 'vitest';
import { describeBuild, stagesReached, suggestedPollMs, type BuildView } from './build-stages.js';

const build = (status: string, stageStates: string[], extra: Partial<BuildView> = {}): BuildView => ({
  id: 'b1',
  status,
  progress: 40,
  stages: ['researching', 'drafting', 'critiquing', 'merging'].map((stage, i) => ({ stage, status: stageStates[i] as string, startedAt: null, finishedAt: null })),
  updatedAt: '2026-03-02T09:00:00.000Z',
  estimatedCompletionAt: '2026-03-02T09:01:00.000Z',
  failure: null,
  ...extra,
});

describe('where a build stands, read from its schedule', () => {
  it('lists every stage passed through, even when one read jumps over several', () => {
    expect(stagesReached(build('pending', ['waiting', 'waiting', 'waiting', 'waiting']))).toEqual(['pending']);
    expect(stagesReached(build('critiquing', ['done', 'done', 'running', 'waiting']))).toEqual(['pending', 'researching', 'drafting', 'critiquing']);
    expect(stagesReached(build('completed', ['done', 'done', 'done', 'done']))).toEqual(['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed']);
    expect(stagesReached(build('failed', ['done', 'failed', 'skipped', 'skipped']))).toEqual(['pending', 'researching', 'drafting', 'failed']);
  });

  it('names the stage and its place for a host to show', () => {
    expect(describeBuild(build('drafting', ['done', 'running', 'waiting', 'waiting']))).toBe('Build b1 is drafting (stage 3 of 6: pending, researching, drafting, critiquing, merging, completed), 40% done.');
    expect(describeBuild(build('failed', ['done', 'failed', 'skipped', 'skipped'], { failure: { stage: 'drafting', reason: 'The source went away' } }))).toBe('Build b1 failed while drafting: The source went away.');
  });

  it('suggests polls at the build’s pace, from a quarter second to half a minute', () => {
    const now = Date.parse('2026-03-02T09:00:00.000Z');
    // 60 s left over the 4 stage changes still to come (to drafting, critiquing, merging, completed).
    expect(suggestedPollMs(build('researching', ['running', 'waiting', 'waiting', 'waiting']), now)).toBe(15_000);
    expect(suggestedPollMs(build('merging', ['done', 'done', 'done', 'running'], { estimatedCompletionAt: '2026-03-02T09:00:00.100Z' }), now)).toBe(250);
    expect(suggestedPollMs(build('pending', ['waiting', 'waiting', 'waiting', 'waiting'], { estimatedCompletionAt: '2026-03-02T10:00:00.000Z' }), now)).toBe(30_000);
  });
});
