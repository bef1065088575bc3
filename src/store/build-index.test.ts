import { describe, expect, it } from 'vitest';
import { Rng } from '../random/rng.js';
import type { BuildRecord } from './records.js';
import { BuildIndex } from './build-index.js';
import { PIPELINE_STAGES, scheduleOf, statusAt, type BuildStatus, type PipelineSchedule } from './schedule.js';

const STATUSES: BuildStatus[] = ['pending', ...PIPELINE_STAGES, 'completed', 'failed'];

/** A schedule with random stage lengths (some zero: instant speed), failing now and then. */
function schedule(rng: Rng, createdAt: number): PipelineSchedule {
  const starts: number[] = [];
  let t = createdAt;
  for (let i = 0; i < 4; i++) starts.push((t += rng.int(0, 3) * 1000));
  const completeAt = t + rng.int(0, 3) * 1000;
  const failing = rng.bool(0.2) ? rng.int(0, 3) : -1;
  const failure = failing >= 0 ? { stage: PIPELINE_STAGES[failing]!, at: Math.floor(((starts[failing] as number) + (starts[failing + 1] ?? completeAt)) / 2), reason: 'r' } : null;
  return scheduleOf({ createdAt, stageStarts: starts as [number, number, number, number], completeAt, failure });
}

describe('the build index', () => {
  it('names exactly the builds of a status and of a target at any instant, as a scan would', () => {
    const rng = new Rng('index');
    const index = new BuildIndex();
    const builds: Array<{ seq: number; build: BuildRecord }> = [];
    let now = 0;
    for (let step = 0; step < 2_000; step++) {
      if (rng.bool(0.6)) {
        const build = { id: `b${step}`, targetId: `t${rng.int(0, 3)}`, schedule: schedule(rng, now) } as BuildRecord;
        builds.push({ seq: step + 1, build });
        index.add(step + 1, build, now);
      } else {
        now += rng.int(0, 2500);
      }
      if (step % 50 !== 0) continue;
      for (const status of [...STATUSES, undefined]) {
        for (const targetId of ['t0', 't3', undefined]) {
          const expected = builds
            .filter(({ build }) => (!status || statusAt(build.schedule, now) === status) && (!targetId || build.targetId === targetId))
            .map((b) => b.seq);
          const candidates = index.candidates(now, status, targetId);
          if (!status && !targetId) {
            expect(candidates).toBeUndefined();
            continue;
          }
          // Candidates may hold more (stale entries, the other filter), never less, and ascend.
          const kept = (candidates ?? []).filter((seq) => expected.includes(seq));
          expect(kept, `${status} ${targetId} at ${now}`).toEqual(expected);
          expect([...(candidates ?? [])].sort((a, b) => a - b)).toEqual(candidates);
        }
      }
    }
  });

  it('stays small: builds that left a status are compacted away from its list', () => {
    const index = new BuildIndex();
    for (let seq = 1; seq <= 10_000; seq++) {
      index.add(seq, { id: `b${seq}`, targetId: 't', schedule: scheduleOf({ createdAt: 0, stageStarts: [10, 20, 30, 40], completeAt: 50, failure: null }) } as unknown as BuildRecord, 0);
    }
    expect(index.candidates(0, 'pending', undefined)).toHaveLength(10_000);
    expect(index.candidates(60, 'completed', undefined)).toHaveLength(10_000);
    expect(index.candidates(60, 'pending', undefined)!.length).toBeLessThanOrEqual(1);
    expect(index.candidates(60, 'merging', undefined)!.length).toBeLessThanOrEqual(1);
  });
});
