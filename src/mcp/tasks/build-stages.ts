import { PIPELINE_STAGES } from '../../builds/pipeline.js';

/**
 * What a build's body (getBuild's answer) says of where it is, read from its schedule: the
 * stages it has passed through, the words a host shows for them, and how soon the next
 * change is due. Used by waitForBuild's progress and by the tasks that follow builds.
 */
export const BUILD_STAGES = ['pending', ...PIPELINE_STAGES, 'completed'] as const;

export interface BuildView {
  id: string;
  status: string;
  progress: number;
  stages: { stage: string; status: string; startedAt: string | null; finishedAt: string | null }[];
  updatedAt: string;
  estimatedCompletionAt: string;
  failure: { stage?: string; reason?: string; code?: string; message?: string } | null;
}

export function isEnded(build: BuildView): boolean {
  return build.status === 'completed' || build.status === 'failed';
}

/**
 * Every stage the build has reached, in the pipeline's order: `pending` (where every build
 * starts), each stage that has started, then `completed` or `failed`. A build read once per
 * minute still shows every stage it went through between two reads.
 */
export function stagesReached(build: BuildView): string[] {
  const reached = ['pending'];
  for (const stage of build.stages) if (stage.status === 'running' || stage.status === 'done' || stage.status === 'failed') reached.push(stage.stage);
  if (isEnded(build)) reached.push(build.status);
  return reached;
}

/** A stage's place in BUILD_STAGES (failed counts as the end), for progress that only grows. */
export function stageIndex(stage: string): number {
  const index = BUILD_STAGES.indexOf(stage as (typeof BUILD_STAGES)[number]);
  return index === -1 ? BUILD_STAGES.length - 1 : index;
}

/** One line for a host to show: the stage by name and place, and how far along the build is. */
export function describeBuild(build: BuildView): string {
  if (build.status === 'failed') {
    const failure = build.failure ?? {};
    const reason = failure.reason ?? failure.message ?? 'no reason given';
    return `Build ${build.id} failed${failure.stage ? ` while ${failure.stage}` : ''}: ${reason}.`;
  }
  if (build.status === 'completed') return `Build ${build.id} completed: its deliverables are ready (getBuild lists them; getDeliverable or downloadDeliverable reads one).`;
  const place = stageIndex(build.status) + 1;
  return `Build ${build.id} is ${build.status} (stage ${place} of ${BUILD_STAGES.length}: ${BUILD_STAGES.join(', ')}), ${build.progress}% done.`;
}

/** Shortest and longest pause a task suggests between two reads, in ms. */
export const POLL_BOUNDS = { min: 250, max: 30_000 } as const;

/**
 * The pause the build's pace suggests before the next read: the time left spread over the
 * stage changes still to come, within POLL_BOUNDS. `now` is the account's time.
 */
export function suggestedPollMs(build: BuildView, now: number): number {
  const left = Date.parse(build.estimatedCompletionAt) - now;
  const changesLeft = Math.max(1, BUILD_STAGES.length - 1 - stageIndex(build.status));
  const pace = Number.isFinite(left) ? Math.round(left / changesLeft) : POLL_BOUNDS.max;
  return Math.min(POLL_BOUNDS.max, Math.max(POLL_BOUNDS.min, pace));
}
