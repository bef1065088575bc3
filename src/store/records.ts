import type { Scope } from '../auth/api-key.js';
import type { BrandKit, ContentKind, GeneratedContent, LibraryItemSnapshot, PressReleaseOptions, SocialPlatform, TargetSnapshot } from '../content/types.js';
import type { PipelineSchedule } from '../builds/pipeline.js';

/** Times are milliseconds since the epoch on the virtual clock; serializers format them. */

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** SHA-256 of the key: the key itself is never stored. */
  hash: string;
  /** `svc_live_…abcd`: what may be shown or logged. */
  hint: string;
  scopes: Scope[];
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export type TransactionType = 'purchase' | 'grant' | 'build_charge' | 'build_refund';

export interface TransactionRecord {
  id: string;
  type: TransactionType;
  amount: number;
  balanceAfter: number;
  description: string;
  buildId: string | null;
  createdAt: number;
}

export interface TargetRecord {
  id: string;
  name: string;
  slug: string;
  description: string;
  brandKit: BrandKit;
  createdAt: number;
  updatedAt: number;
}

export type LibraryItemType = 'cta' | 'glossary_term' | 'product_blurb' | 'brand_asset';

/** Reusable content of one target: calls to action, glossary terms, product blurbs, brand assets. */
export interface LibraryItemRecord {
  id: string;
  targetId: string;
  type: LibraryItemType;
  name: string;
  content: string;
  url: string | null;
  createdAt: number;
  updatedAt: number;
}

export type BuildType = 'single' | 'suite';
export type ResearchPolicy = 'required' | 'optional' | 'none';
export type ResearchMode = 'standard' | 'deep';
export type QualityMode = 'standard' | 'premium';

export interface BuildOptions {
  buildType: BuildType;
  kind: ContentKind;
  objective: string;
  researchPolicy: ResearchPolicy;
  researchMode: ResearchMode;
  qualityMode: QualityMode;
  pages: number;
  generateImages: boolean;
  pressRelease?: PressReleaseOptions;
  socialPlatforms?: SocialPlatform[];
  libraryItemIds?: string[];
}

export interface BuildRecord extends BuildOptions {
  id: string;
  accountId: string;
  targetId: string;
  cost: number;
  correlationId: string;
  idempotencyKey: string | null;
  createdAt: number;
  schedule: PipelineSchedule;
  /** The target and library items as they were at creation: later edits don't rewrite a build. */
  target: TargetSnapshot;
  libraryItems: LibraryItemSnapshot[];
  deliverableIds: string[];
  /** Generated on first read after completion; deterministic, so caching is only a speed-up. */
  content?: GeneratedContent[];
}
