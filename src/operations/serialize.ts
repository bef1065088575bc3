import { toIso } from '../clock/clock.js';
import { progressAt, stageTimings, statusAt, statusSince } from '../builds/pipeline.js';
import type { GeneratedContent } from '../content/types.js';
import type { Account } from '../store/account.js';
import type { Page } from '../store/ordered-collection.js';
import type { BuildRecord, LibraryItemRecord, ShareRecord, TargetRecord, TransactionRecord } from '../store/records.js';

/** Records → the JSON shapes of openapi.yaml. Times become ISO 8601 UTC strings here. */

export function balanceJson(account: Account) {
  return { balance: account.balance, lifetimePurchased: account.lifetimePurchased, lifetimeUsed: account.lifetimeUsed };
}

export function transactionJson(t: TransactionRecord) {
  return {
    id: t.id,
    type: t.type,
    amount: t.amount,
    balanceAfter: t.balanceAfter,
    description: t.description,
    buildId: t.buildId,
    createdAt: toIso(t.createdAt),
  };
}

export function targetJson(t: TargetRecord) {
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    description: t.description,
    brandKit: t.brandKit,
    createdAt: toIso(t.createdAt),
    updatedAt: toIso(t.updatedAt),
  };
}

export function buildJson(b: BuildRecord, now: number) {
  const s = b.schedule;
  const status = statusAt(s, now);
  const failure = status === 'failed' && s.failure ? { stage: s.failure.stage, reason: s.failure.reason, refundedTokens: b.cost } : null;
  return {
    id: b.id,
    targetId: b.targetId,
    buildType: b.buildType,
    kind: b.kind,
    objective: b.objective,
    researchPolicy: b.researchPolicy,
    researchMode: b.researchMode,
    qualityMode: b.qualityMode,
    pages: b.pages,
    generateImages: b.generateImages,
    ...kindOptionsJson(b),
    status,
    progress: progressAt(s, now),
    stages: stageTimings(s, now).map((t) => ({
      stage: t.stage,
      status: t.status,
      startedAt: t.startedAt === null ? null : toIso(t.startedAt),
      finishedAt: t.finishedAt === null ? null : toIso(t.finishedAt),
    })),
    cost: b.cost,
    correlationId: b.correlationId,
    idempotencyKey: b.idempotencyKey,
    createdAt: toIso(b.createdAt),
    updatedAt: toIso(statusSince(s, now)),
    estimatedCompletionAt: toIso(s.completeAt),
    completedAt: status === 'completed' ? toIso(s.completeAt) : null,
    failure,
  };
}

/** Kind-specific request options echo back only when the build was given them. */
function kindOptionsJson(b: BuildRecord) {
  return {
    ...(b.pressRelease ? { pressRelease: b.pressRelease } : {}),
    ...(b.socialPlatforms ? { socialPlatforms: b.socialPlatforms } : {}),
    ...(b.libraryItemIds ? { libraryItemIds: b.libraryItemIds } : {}),
  };
}

export function deliverableSummaryJson(b: BuildRecord, pageIndex: number, c: GeneratedContent) {
  return {
    id: b.deliverableIds[pageIndex] as string,
    buildId: b.id,
    kind: b.kind,
    pageIndex,
    title: c.title,
    wordCount: c.wordCount,
    createdAt: toIso(b.schedule.completeAt),
  };
}

export function deliverableJson(b: BuildRecord, pageIndex: number, c: GeneratedContent) {
  const counts = { supported: 0, weak: 0, unsupported: 0 };
  for (const claim of c.claims) counts[claim.verdict]++;
  const score = c.claims.length === 0 ? 0 : Math.round((counts.supported / c.claims.length) * 100) / 100;
  return {
    id: b.deliverableIds[pageIndex] as string,
    buildId: b.id,
    targetId: b.targetId,
    kind: b.kind,
    pageIndex,
    title: c.title,
    slug: c.slug,
    summary: c.summary,
    metaDescription: c.metaDescription,
    markdown: c.markdown,
    html: c.html,
    wordCount: c.wordCount,
    sources: c.sources,
    claims: c.claims,
    verification: { ...counts, score },
    images: c.images,
    kindData: c.kindData,
    createdAt: toIso(b.schedule.completeAt),
  };
}

export function libraryItemJson(item: LibraryItemRecord) {
  return {
    id: item.id,
    targetId: item.targetId,
    type: item.type,
    name: item.name,
    content: item.content,
    url: item.url,
    createdAt: toIso(item.createdAt),
    updatedAt: toIso(item.updatedAt),
  };
}

export function shareJson(share: ShareRecord) {
  return {
    id: share.id,
    deliverableId: share.deliverableId,
    token: share.token,
    url: `/api/v1/shared/${share.token}`,
    createdAt: toIso(share.createdAt),
    expiresAt: share.expiresAt === null ? null : toIso(share.expiresAt),
    revokedAt: share.revokedAt === null ? null : toIso(share.revokedAt),
  };
}

/** What a share link shows: the content and its evidence, nothing of the account, build or target. */
export function sharedDeliverableJson(b: BuildRecord, pageIndex: number, c: GeneratedContent) {
  const { title, kind, markdown, html, sources, claims, verification } = deliverableJson(b, pageIndex, c);
  return { title, kind, markdown, html, sources, claims, verification };
}

/** A page of records as the `{ data, nextCursor }` every list of openapi.yaml answers. */
export function pageJson<T, J>(page: Page<T>, toJson: (record: T) => J): { data: J[]; nextCursor: string | null } {
  return { data: page.data.map(toJson), nextCursor: page.nextCursor };
}
