import { notFound, validationError } from '../errors/api-error.js';
import { assertAffordable, chargeBuild, refundBuild } from '../ledger/ledger.js';
import { buildCost } from '../ledger/prices.js';
import type { Account } from '../store/account.js';
import type { BuildOptions, BuildRecord, TargetRecord } from '../store/records.js';
import { Build, NO_LIBRARY_ITEMS } from '../store/build-record.js';
import type { Interner } from '../store/interner.js';
import type { GeneratedContent, LibraryItemSnapshot, TargetSnapshot } from '../content/types.js';
import { kindOptionProblems } from '../content/kind-options.js';
import { findTarget } from '../targets/targets-service.js';
import { failMarkerStage, isPipelineStage, plannedFailure } from './magic-inputs.js';
import { PIPELINE_STAGES, planSchedule, statusAt } from './pipeline.js';
import type { ContentCache } from './content-cache.js';

export interface BuildEnvironment {
  seed: string;
  /** Pipeline speed factor (1 = realistic, +Infinity = instant). */
  speed: number;
  generateContent: (input: import('../content/types.js').ContentInput) => GeneratedContent;
  /** Resolves the library items a build names; throws a validation error for unknown ones. */
  resolveLibraryItems?: (account: Account, targetId: string, ids: string[]) => LibraryItemSnapshot[];
  /** Recently read content, bounded in bytes; absent: generated on every read. */
  contentCache?: ContentCache;
  /** A client that repeats an objective (a load test, a CI job): its builds share one copy; absent, each keeps its own. */
  objectives?: Interner;
}

export interface CreateBuildRequest extends BuildOptions {
  targetId: string;
}

export type CreateBuildResult = { replayed: false; build: Build } | { replayed: true; build: Build };

/** Rules the schema cannot express: page counts by build type, the fail marker, the target. */
function checkSemantics(account: Account, input: CreateBuildRequest): TargetSnapshot {
  if (input.buildType === 'single' && input.pages !== 1) {
    throw validationError([{ path: 'body.pages', message: 'a single build has exactly one page; use buildType "suite" for more' }]);
  }
  if (input.buildType === 'suite' && input.pages < 2) {
    throw validationError([{ path: 'body.pages', message: 'a suite build needs 2 to 20 pages' }]);
  }
  const optionProblems = kindOptionProblems(input);
  if (optionProblems.length > 0) throw validationError(optionProblems);
  const stage = failMarkerStage(input.objective);
  if (stage !== null && !isPipelineStage(stage)) {
    throw validationError([{ path: 'body.objective', message: `[fail:${stage}] names no pipeline stage; use one of ${PIPELINE_STAGES.join(', ')}` }]);
  }
  return targetSnapshot(findTarget(account, input.targetId));
}

const snapshots = new WeakMap<TargetRecord, TargetSnapshot>();

/**
 * The target as a build keeps it. Builds made between two edits share one snapshot: a
 * brand kit is replaced on update, never changed in place, so sharing it is safe, and a
 * million builds of one target hold one copy.
 */
function targetSnapshot(target: TargetRecord): TargetSnapshot {
  const last = snapshots.get(target);
  if (last && last.name === target.name && last.slug === target.slug && last.description === target.description && last.brandKit === target.brandKit) return last;
  const snapshot = { id: target.id, name: target.name, slug: target.slug, description: target.description, brandKit: target.brandKit };
  snapshots.set(target, snapshot);
  return snapshot;
}

/**
 * Creates a build, or replays the one an Idempotency-Key already made (spec, Endpoints
 * rules 1, 2 and 4). Runs synchronously from check to write, so two identical requests
 * arriving together cannot both create a build, and a refused one writes nothing.
 */
export function createBuild(
  env: BuildEnvironment,
  account: Account,
  input: CreateBuildRequest,
  idempotencyKey: string | null,
  correlationId: string,
  now: number,
): CreateBuildResult {
  // A replay answers the existing build first (spec rule 2), even if its target is gone since.
  if (idempotencyKey !== null) {
    const existingId = account.idempotency.find(idempotencyKey, now);
    const existing = existingId ? account.builds.get(existingId) : undefined;
    if (existing) return { replayed: true, build: existing };
  }
  const target = checkSemantics(account, input);
  const libraryItems = input.libraryItemIds?.length && env.resolveLibraryItems
    ? env.resolveLibraryItems(account, input.targetId, input.libraryItemIds)
    : NO_LIBRARY_ITEMS;
  const cost = buildCost(input);
  assertAffordable(account, cost);

  const id = account.newId();
  const deliverableIds = Array.from({ length: input.pages }, () => account.newId());
  const failure = plannedFailure(input.objective);
  const build = new Build(input, {
    objective: env.objectives?.of(input.objective) ?? input.objective,
    id,
    cost,
    correlationId,
    idempotencyKey,
    createdAt: now,
    schedule: planSchedule({ seed: env.seed, buildId: id, createdAt: now, options: input, speed: env.speed, failAt: failure }),
    target,
    libraryItems,
    deliverableIds,
  });
  chargeBuild(account, build, now);
  account.builds.add(build);
  account.buildIndex.add(account.builds.seqOf(id) as number, build, now);
  for (const deliverableId of deliverableIds) account.deliverables.set(deliverableId, build);
  if (idempotencyKey !== null) account.idempotency.remember(idempotencyKey, id, now);
  if (build.schedule.failure) scheduleRefund(account, id, build.schedule.failure.at);
  return { replayed: false, build };
}

function scheduleRefund(account: Account, buildId: string, at: number): void {
  const queue = account.pendingRefunds;
  let i = queue.length;
  while (i > 0 && (queue[i - 1] as { at: number }).at > at) i--;
  queue.splice(i, 0, { buildId, at });
}

/**
 * Books the refunds of builds that have failed by `now`, dated when they failed. Called
 * before anything reads or changes the account, so the ledger stays in time order and a
 * failed build's tokens are back before the next charge is checked.
 */
export function settleRefunds(account: Account, now: number): void {
  const queue = account.pendingRefunds;
  while (queue.length > 0 && (queue[0] as { at: number }).at <= now) {
    const { buildId, at } = queue.shift() as { buildId: string; at: number };
    const build = account.builds.get(buildId);
    if (build) refundBuild(account, build.cost, buildId, at);
  }
}

export function findBuild(account: Account, id: string): Build {
  return account.builds.require(id);
}

/**
 * The build's deliverables' content, once it has completed: from the cache, or generated again
 * (and cached, unless `keep` is false: the caller needs it only for a moment).
 */
export function buildContent(env: BuildEnvironment, build: BuildRecord, now: number, keep = true): GeneratedContent[] {
  if (statusAt(build.schedule, now) !== 'completed') return [];
  const cached = env.contentCache?.get(build.id);
  if (cached) return cached;
  const pages = build.deliverableIds.map((deliverableId, pageIndex) =>
    env.generateContent({
      seed: env.seed,
      buildId: build.id,
      deliverableId,
      pageIndex,
      pageCount: build.pages,
      kind: build.kind,
      objective: build.objective,
      researchPolicy: build.researchPolicy,
      researchMode: build.researchMode,
      qualityMode: build.qualityMode,
      generateImages: build.generateImages,
      target: build.target,
      completedAt: new Date(build.schedule.completeAt).toISOString(),
      ...(build.pressRelease ? { pressRelease: build.pressRelease } : {}),
      ...(build.socialPlatforms ? { socialPlatforms: build.socialPlatforms } : {}),
      ...(build.libraryItems.length ? { libraryItems: build.libraryItems } : {}),
    }),
  );
  if (keep) env.contentCache?.set(build.id, pages);
  return pages;
}

export interface DeliverableView {
  build: BuildRecord;
  pageIndex: number;
  content: GeneratedContent;
}

/** A deliverable exists for its owner once its build has completed; before that it is 404. */
export function findDeliverable(env: BuildEnvironment, account: Account, id: string, now: number): DeliverableView {
  const kept = account.deliverables.get(id);
  // The account still holds the build (a deleted build's deliverables are gone with it).
  const build = kept && account.builds.get(kept.id) === kept ? kept : undefined;
  const pageIndex = build ? build.pageOf(id) : -1;
  const content = build ? buildContent(env, build, now)[pageIndex] : undefined;
  if (!build || !content) throw notFound('deliverable', id);
  return { build, pageIndex, content };
}

