import { PIPELINE_STAGES, type PipelineStage } from './pipeline.js';

/**
 * Magic inputs, like a payment provider's test card numbers: an objective that contains
 * `[fail:<stage>]` (e.g. `[fail:drafting]`) makes the build fail half-way through that
 * stage, with no admin call. The failed build's tokens are refunded.
 */
const FAIL_MARKER = /\[fail:([a-z]+)\]/i;

const FAILURE_REASONS: Record<PipelineStage, string> = {
  researching: 'Research failed: no usable sources could be retrieved for the objective.',
  drafting: 'Drafting failed: the draft did not meet the minimum quality bar.',
  critiquing: 'Critique failed: the reviewers could not reach agreement on the draft.',
  merging: 'Merge failed: the verified claims could not be reconciled into one deliverable.',
};

export interface PlannedFailure {
  stage: PipelineStage;
  reason: string;
}

/** The failure an objective asks for, or null; an unknown stage name is a validation error upstream. */
export function plannedFailure(objective: string): PlannedFailure | null {
  const stage = failMarkerStage(objective);
  if (stage === null || !isPipelineStage(stage)) return null;
  return { stage, reason: FAILURE_REASONS[stage] };
}

/** The raw stage named by a `[fail:…]` marker, or null when there is none. */
export function failMarkerStage(objective: string): string | null {
  return FAIL_MARKER.exec(objective)?.[1]?.toLowerCase() ?? null;
}

export function isPipelineStage(value: string): value is PipelineStage {
  return (PIPELINE_STAGES as readonly string[]).includes(value);
}
