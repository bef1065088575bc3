/** A build's schedule as the store keeps it: what the pipeline plans and each status derives from. */
export const PIPELINE_STAGES = ['researching', 'drafting', 'critiquing', 'merging'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];
export type BuildStatus = 'pending' | PipelineStage | 'completed' | 'failed';
export const TERMINAL_STATUSES: ReadonlySet<BuildStatus> = new Set(['completed', 'failed']);

/**
 * A build's whole future, fixed at creation: when each stage starts, when it completes or
 * fails. Its status is then a pure function of (schedule, now): no timers, no background
 * work, so idle builds cost nothing and advancing the clock finishes them at once.
 */
export interface PipelineSchedule {
  readonly createdAt: number;
  readonly completeAt: number;
  readonly failure: ScheduledFailure | null;
  /** When stage `i` of PIPELINE_STAGES starts; the pending phase lasts until the first. */
  stageStart(i: number): number;
}

export interface ScheduledFailure {
  stage: PipelineStage;
  at: number;
  reason: string;
}

/** A schedule as plain data: what a saved simulation writes. */
export interface ScheduleTimes {
  createdAt: number;
  stageStarts: readonly [number, number, number, number];
  completeAt: number;
  failure: ScheduledFailure | null;
}

/** A schedule from its stage start times; the pipeline plans them, a saved simulation restores them. */
export class PlannedSchedule implements PipelineSchedule {
  constructor(
    readonly createdAt: number,
    private readonly starts: readonly number[],
    readonly completeAt: number,
    readonly failure: ScheduledFailure | null,
  ) {}

  stageStart(i: number): number {
    return this.starts[i] as number;
  }
}

export function scheduleOf(t: ScheduleTimes): PipelineSchedule {
  return new PlannedSchedule(t.createdAt, t.stageStarts, t.completeAt, t.failure);
}

export function scheduleTimes(s: PipelineSchedule): ScheduleTimes {
  return { createdAt: s.createdAt, stageStarts: [s.stageStart(0), s.stageStart(1), s.stageStart(2), s.stageStart(3)], completeAt: s.completeAt, failure: s.failure };
}

export function statusAt(s: PipelineSchedule, now: number): BuildStatus {
  if (s.failure && now >= s.failure.at) return 'failed';
  if (now >= s.completeAt) return 'completed';
  for (let i = PIPELINE_STAGES.length - 1; i >= 0; i--) {
    if (now >= s.stageStart(i)) return PIPELINE_STAGES[i] as PipelineStage;
  }
  return 'pending';
}
