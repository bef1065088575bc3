import type { Scope } from '../credentials/api-key.js';
import type { BrandKit, ContentKind, LibraryItemSnapshot, PressReleaseOptions, SocialPlatform, TargetSnapshot } from '../content/types.js';
import type { PipelineSchedule } from './schedule.js';
import type { ImageSvgInput, LogoPosition, VoiceId } from '../media/index.js';

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
  /** The key this one replaced by rotation, and the key that replaced this one. */
  rotatedFromId: string | null;
  replacedById: string | null;
}

export type TransactionType = 'purchase' | 'grant' | 'build_charge' | 'build_refund' | 'image_charge';

export interface TransactionRecord {
  readonly id: string;
  readonly type: TransactionType;
  readonly amount: number;
  readonly balanceAfter: number;
  readonly description: string;
  readonly buildId: string | null;
  /** The catalogue bundle a purchase bought; absent for other entries. */
  readonly bundleId?: string;
  readonly createdAt: number;
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

/** A revocable link to one deliverable. The token is kept so its owner can list the link again. */
export interface ShareRecord {
  id: string;
  deliverableId: string;
  token: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
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

/** A build as readers see it; the store keeps it compact (see build-record.ts). */
export interface BuildRecord extends Readonly<BuildOptions> {
  readonly id: string;
  readonly targetId: string;
  readonly cost: number;
  readonly correlationId: string;
  readonly idempotencyKey: string | null;
  readonly createdAt: number;
  readonly schedule: PipelineSchedule;
  /** The target and library items as they were at creation: later edits don't rewrite a build. */
  readonly target: TargetSnapshot;
  readonly libraryItems: readonly LibraryItemSnapshot[];
  readonly deliverableIds: readonly string[];
  /** The page of one of its deliverables, or -1. */
  pageOf(deliverableId: string): number;
}

/** An image generated with POST /images: only its parameters; the SVG is rendered on request. */
export interface ImageRecord extends Pick<ImageSvgInput, 'id' | 'prompt' | 'style' | 'mood' | 'colors' | 'size'> {
  /** The logo text as drawn (a target's name is copied at creation), or null. */
  logo: { text: string; position: LogoPosition; targetId: string | null } | null;
  cost: number;
  createdAt: number;
}

/** A listen version: what it reads and how long it is; the WAV is rendered on request. */
export interface AudioRecord {
  id: string;
  deliverableId: string;
  buildId: string;
  voice: VoiceId;
  durationSeconds: number;
  sampleRate: number;
  wordCount: number;
  bytes: number;
  createdAt: number;
}

export interface ChatReferenceRecord {
  libraryItemId: string;
  type: LibraryItemType;
  name: string;
}

export interface ChatMessageRecord {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  references: ChatReferenceRecord[];
  createdAt: number;
}

/** A conversation with the brand assistant; its messages, oldest first, are bounded. */
export interface ChatRecord {
  id: string;
  targetId: string;
  title: string;
  /** The target as last seen: replies still work if the target is gone. */
  target: TargetSnapshot;
  messages: ChatMessageRecord[];
  createdAt: number;
  updatedAt: number;
}
