import { buildContent, createBuild as create, findBuild, type CreateBuildRequest } from '../builds/builds-service.js';
import { statusAt, type BuildStatus } from '../builds/pipeline.js';
import type { ContentKind } from '../content/types.js';
import type { ServiceHandler } from './context.js';
import { buildJson, deliverableSummaryJson, pageJson } from './serialize.js';

interface BuildCreateBody extends Partial<Omit<CreateBuildRequest, 'targetId' | 'kind' | 'objective'>> {
  targetId: string;
  kind: ContentKind;
  objective: string;
}

/**
 * Fills the inferred defaults: a single page, research required, standard modes, no images.
 * Field by field rather than a spread of the body: a spread with overrides cost a tenth of
 * the create path.
 */
function withDefaults(body: BuildCreateBody): CreateBuildRequest {
  const buildType = body.buildType ?? 'single';
  const request: CreateBuildRequest = {
    targetId: body.targetId,
    kind: body.kind,
    objective: body.objective.trim(),
    buildType,
    pages: body.pages ?? (buildType === 'suite' ? 0 : 1),
    researchPolicy: body.researchPolicy ?? 'required',
    researchMode: body.researchMode ?? 'standard',
    qualityMode: body.qualityMode ?? 'standard',
    generateImages: body.generateImages ?? false,
  };
  if (body.pressRelease !== undefined) request.pressRelease = body.pressRelease;
  if (body.socialPlatforms !== undefined) request.socialPlatforms = body.socialPlatforms;
  if (body.libraryItemIds !== undefined) request.libraryItemIds = body.libraryItemIds;
  return request;
}

export const createBuild: ServiceHandler = ({ sim, account, body, params, correlationId, now }) => {
  const idempotencyKey = (params.header['Idempotency-Key'] as string | undefined) ?? null;
  const result = create(sim.builds, account, withDefaults(body as BuildCreateBody), idempotencyKey, correlationId, now);
  const { build } = result;
  const json = result.replayed
    ? { buildId: build.id, correlationId: build.correlationId, idempotent: true }
    : { buildId: build.id, correlationId: build.correlationId };
  return { status: result.replayed ? 200 : 202, json, headers: { location: `/api/v1/builds/${build.id}` } };
};

export const listBuilds: ServiceHandler = ({ account, params, now }) => {
  const { limit, cursor, targetId, status } = params.query as { limit: number; cursor?: string; targetId?: string; status?: BuildStatus };
  // Read from the index's candidates only: the cost follows the page, not the history.
  const candidates = account.buildIndex.candidates(now, status, targetId);
  const keep = (b: { targetId: string; schedule: Parameters<typeof statusAt>[0] }) =>
    (!targetId || b.targetId === targetId) && (!status || statusAt(b.schedule, now) === status);
  const page = candidates ? account.builds.pageOf(candidates, limit, cursor, keep) : account.builds.page(limit, cursor);
  return { status: 200, json: pageJson(page, (b) => buildJson(b, now)) };
};

const JSON_TYPE = 'application/json; charset=utf-8';

export const getBuild: ServiceHandler = ({ sim, account, params, now }) => {
  const build = findBuild(account, params.path.buildId as string);
  const cache = sim.builds.contentCache;
  // A completed build never changes again: its answer, once written, is served as it is.
  const done = statusAt(build.schedule, now) === 'completed';
  const kept = done ? cache?.answer(build.id) : undefined;
  if (kept !== undefined) return { status: 200, file: { body: kept.text, contentType: JSON_TYPE, bytes: kept.bytes } };
  // Titles and word counts only: the pages are not kept for this (the answer is).
  const deliverables = buildContent(sim.builds, build, now, false).map((content, pageIndex) => deliverableSummaryJson(build, pageIndex, content));
  const answer = JSON.stringify({ build: buildJson(build, now), deliverables });
  if (done) cache?.setAnswer(build.id, answer);
  return { status: 200, file: { body: answer, contentType: JSON_TYPE } };
};
