import { describe, expect, it } from 'vitest';
import { PIPELINE_STAGES, planSchedule, progressAt, SPEED_PRESETS, stageTimings, statusAt } from './pipeline.js';

const standardBlog = { pages: 1, researchPolicy: 'required', researchMode: 'standard', qualityMode: 'standard', generateImages: false } as const;

describe('pipeline schedule', () => {
  it('takes 3 to 8 minutes for a standard blog with research at the realistic speed, across seeds', () => {
    const totals: number[] = [];
    for (let i = 0; i < 300; i++) {
      const s = planSchedule({ seed: `seed-${i}`, buildId: `b-${i}`, createdAt: 0, options: standardBlog, speed: SPEED_PRESETS.realistic });
      totals.push(s.completeAt);
    }
    expect(Math.min(...totals)).toBeGreaterThanOrEqual(180_000);
    expect(Math.max(...totals)).toBeLessThanOrEqual(480_000);
    // Seeded, not constant: the durations spread over the range.
    expect(Math.max(...totals) - Math.min(...totals)).toBeGreaterThan(120_000);
  });

  it('runs sixty times faster at the default fast speed', () => {
    const input = { seed: 's', buildId: 'b', createdAt: 0, options: standardBlog };
    const realistic = planSchedule({ ...input, speed: SPEED_PRESETS.realistic }).completeAt;
    const fast = planSchedule({ ...input, speed: SPEED_PRESETS.fast }).completeAt;
    expect(fast).toBeGreaterThanOrEqual(3_000);
    expect(fast).toBeLessThanOrEqual(8_000);
    expect(Math.abs(fast - realistic / 60)).toBeLessThan(10);
  });

  it('completes at once at the instant speed', () => {
    const s = planSchedule({ seed: 's', buildId: 'b', createdAt: 1000, options: standardBlog, speed: SPEED_PRESETS.instant });
    expect(statusAt(s, 1000)).toBe('completed');
  });

  it('walks pending → researching → drafting → critiquing → merging → completed in order', () => {
    const s = planSchedule({ seed: 's', buildId: 'b', createdAt: 0, options: standardBlog, speed: 1 });
    const seen: string[] = [];
    for (let t = 0; t <= s.completeAt + 1000; t += 500) {
      const status = statusAt(s, t);
      if (seen.at(-1) !== status) seen.push(status);
    }
    expect(seen).toEqual(['pending', ...PIPELINE_STAGES, 'completed']);
    expect(progressAt(s, s.completeAt)).toBe(100);
    expect(progressAt(s, s.completeAt - 1)).toBeLessThan(100);
  });

  it('takes longer with more pages, deep research and premium quality', () => {
    const base = { seed: 's', buildId: 'b', createdAt: 0, speed: 1 };
    const one = planSchedule({ ...base, options: standardBlog }).completeAt;
    expect(planSchedule({ ...base, options: { ...standardBlog, pages: 5 } }).completeAt).toBeGreaterThan(one);
    expect(planSchedule({ ...base, options: { ...standardBlog, researchMode: 'deep' } }).completeAt).toBeGreaterThan(one);
    expect(planSchedule({ ...base, options: { ...standardBlog, qualityMode: 'premium' } }).completeAt).toBeGreaterThan(one);
  });

  it.each(PIPELINE_STAGES)('fails half-way through %s when asked to, and stays failed', (stage) => {
    const s = planSchedule({ seed: 's', buildId: 'b', createdAt: 0, options: standardBlog, speed: 1, failAt: { stage, reason: 'r' } });
    const failAt = s.failure!.at;
    expect(statusAt(s, failAt - 1)).toBe(stage);
    expect(statusAt(s, failAt)).toBe('failed');
    expect(statusAt(s, s.completeAt + 1e9)).toBe('failed');
    const timings = stageTimings(s, failAt);
    const i = PIPELINE_STAGES.indexOf(stage);
    expect(timings[i]!.status).toBe('failed');
    expect(timings.slice(0, i).every((t) => t.status === 'done')).toBe(true);
    expect(timings.slice(i + 1).every((t) => t.status === 'skipped')).toBe(true);
  });
});
