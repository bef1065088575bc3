import { Rng } from '../random/rng.js';
import type { BuildOptions } from '../store/records.js';
import { PIPELINE_STAGES, PlannedSchedule, statusAt, type PipelineSchedule, type PipelineStage, type ScheduledFailure } from '../store/schedule.js';

export { PIPELINE_STAGES, TERMINAL_STATUSES, scheduleOf, scheduleTimes, statusAt } from '../store/schedule.js';
export type { BuildStatus, PipelineSchedule, PipelineStage, ScheduledFailure, ScheduleTimes } from '../store/schedule.js';

/**
 * Realistic stage durations in seconds for one standard page with research: their sums
 * run from 180 s to 480 s, the spec's 3 to 8 minutes for a standard blog post.
 */
const REALISTIC_SECONDS = {
  pending: [1, 5],
  researching: [55, 145],
  drafting: [60, 150],
  critiquing: [32, 90],
  merging: [32, 90],
} as const;

/** Pipeline speed: how many times faster than realistic the stages run. */
export const SPEED_PRESETS = { realistic: 1, fast: 60, instant: Number.POSITIVE_INFINITY } as const;
export type SpeedPreset = keyof typeof SPEED_PRESETS;

export interface PlanInput {
  seed: string;
  buildId: string;
  createdAt: number;
  options: Pick<BuildOptions, 'pages' | 'researchPolicy' | 'researchMode' | 'qualityMode' | 'generateImages'>;
  /** A factor (1 = realistic) or +Infinity for instant builds. */
  speed: number;
  failAt?: { stage: PipelineStage; reason: string } | null;
}

export function planSchedule(input: PlanInput): PipelineSchedule {
  const rng = new Rng(input.seed, 'pipeline', input.buildId);
  const { options } = input;
  const extraPages = options.pages - 1;
  const factors: Record<'pending' | PipelineStage, number> = {
    pending: 1,
    researching: (options.researchPolicy === 'none' ? 0.2 : options.researchPolicy === 'optional' ? 0.7 : 1) *
      (options.researchMode === 'deep' ? 1.6 : 1) * (1 + 0.25 * extraPages),
    drafting: (options.qualityMode === 'premium' ? 1.3 : 1) * (1 + 0.5 * extraPages),
    critiquing: (options.qualityMode === 'premium' ? 1.3 : 1) * (1 + 0.3 * extraPages),
    merging: (options.generateImages ? 1.4 : 1) * (1 + 0.2 * extraPages),
  };
  const scaled = (phase: 'pending' | PipelineStage): number => {
    const [min, max] = REALISTIC_SECONDS[phase];
    const seconds = rng.float(min, max) * factors[phase];
    return Number.isFinite(input.speed) ? Math.round((seconds * 1000) / input.speed) : 0;
  };
  let t = input.createdAt + scaled('pending');
  const starts = [0, 0, 0, 0];
  PIPELINE_STAGES.forEach((stage, i) => {
    starts[i] = t;
    t += scaled(stage);
  });
  let failure: ScheduledFailure | null = null;
  if (input.failAt) {
    const i = PIPELINE_STAGES.indexOf(input.failAt.stage);
    const end = i + 1 < PIPELINE_STAGES.length ? (starts[i + 1] as number) : t;
    // Fails half-way through the stage, so a poller sees the stage before the failure.
    failure = { stage: input.failAt.stage, at: Math.floor(((starts[i] as number) + end) / 2), reason: input.failAt.reason };
  }
  return new PlannedSchedule(input.createdAt, starts, t, failure);
}

/** When the current status began: the build's `updatedAt`. */
export function statusSince(s: PipelineSchedule, now: number): number {
  const status = statusAt(s, now);
  if (status === 'failed') return (s.failure as { at: number }).at;
  if (status === 'completed') return s.completeAt;
  if (status === 'pending') return s.createdAt;
  return s.stageStart(PIPELINE_STAGES.indexOf(status));
}

export type StageState = 'waiting' | 'running' | 'done' | 'failed' | 'skipped';

export interface StageTiming {
  stage: PipelineStage;
  status: StageState;
  startedAt: number | null;
  finishedAt: number | null;
}

export function stageTimings(s: PipelineSchedule, now: number): StageTiming[] {
  const failedAt = s.failure && now >= s.failure.at ? s.failure : null;
  return PIPELINE_STAGES.map((stage, i) => {
    const start = s.stageStart(i);
    const end = i + 1 < PIPELINE_STAGES.length ? s.stageStart(i + 1) : s.completeAt;
    if (failedAt) {
      const failedIndex = PIPELINE_STAGES.indexOf(failedAt.stage);
      if (i < failedIndex) return { stage, status: 'done', startedAt: start, finishedAt: end };
      if (i === failedIndex) return { stage, status: 'failed', startedAt: start, finishedAt: failedAt.at };
      return { stage, status: 'skipped', startedAt: null, finishedAt: null };
    }
    if (now >= end) return { stage, status: 'done', startedAt: start, finishedAt: end };
    if (now >= start) return { stage, status: 'running', startedAt: start, finishedAt: null };
    return { stage, status: 'waiting', startedAt: null, finishedAt: null };
  });
}

/** Percent of the pipeline's time elapsed; 100 only when completed. */
export function progressAt(s: PipelineSchedule, now: number): number {
  const status = statusAt(s, now);
  if (status === 'completed') return 100;
  const until = status === 'failed' ? (s.failure as { at: number }).at : now;
  const total = s.completeAt - s.createdAt;
  if (total <= 0) return 0;
  return Math.min(99, Math.floor(((until - s.createdAt) / total) * 100));
}
