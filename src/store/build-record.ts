import { CONTENT_KINDS, type ContentKind, type LibraryItemSnapshot, type PressReleaseOptions, type SocialPlatform, type TargetSnapshot } from '../content/types.js';
import { scheduleOf, scheduleTimes, type PipelineSchedule, type ScheduledFailure, type ScheduleTimes } from './schedule.js';
import type { BuildOptions, BuildRecord, BuildType, QualityMode, ResearchMode, ResearchPolicy } from './records.js';

/**
 * A build as the store keeps it, compact because a long-running simulator holds millions:
 * the options that are one of a few values packed in one small integer, the schedule on the
 * build itself as offsets from its creation (small integers V8 keeps unboxed, where instants
 * would each be a boxed number, and no array or object apart), the target's id read from the shared
 * target snapshot, a single page's deliverable id without an array around it, the rarely
 * given options and a planned failure in one slot that is null for most builds, and no account
 * id (its account holds it). Readers see the BuildRecord shape through getters; `toSaved` and
 * `fromSaved` give the plain shape a saved simulation writes.
 */

const BUILD_TYPES: readonly BuildType[] = ['single', 'suite'];
const RESEARCH_POLICIES: readonly ResearchPolicy[] = ['required', 'optional', 'none'];
const RESEARCH_MODES: readonly ResearchMode[] = ['standard', 'deep'];
const QUALITY_MODES: readonly QualityMode[] = ['standard', 'premium'];

// Bit layout of `packed`: pages (5 bits, 1 to 20), kind (4), build type, research policy (2), mode, quality, images.
const KIND_SHIFT = 5;
const TYPE_SHIFT = 9;
const POLICY_SHIFT = 10;
const MODE_SHIFT = 12;
const QUALITY_SHIFT = 13;
const IMAGES_SHIFT = 14;
/** Set when `correlation` holds the bytes of a correlation id the engine made, not its text. */
const PACKED_CORRELATION = 1 << 15;

/**
 * Correlation ids as the engine makes them ("corr_" and 24 hex digits; 48 before) are kept as
 * their bytes, one character each: 32 bytes on V8's heap instead of 48 for today's, 16 MB a
 * million builds. Any other (a restored one written by hand) is kept as it is.
 */
const ENGINE_CORRELATION = /^corr_(?:[0-9a-f]{24}|[0-9a-f]{48})$/;
const CORRELATION_PREFIX = 'corr_';

/** The value of a lower-case hex digit's character code. */
const hexValue = (code: number) => (code <= 57 ? code - 48 : code - 87);

function packCorrelation(text: string): string {
  const bytes: number[] = [];
  for (let i = CORRELATION_PREFIX.length; i < text.length; i += 2) bytes.push((hexValue(text.charCodeAt(i)) << 4) | hexValue(text.charCodeAt(i + 1)));
  // One call over all the codes makes a flat string (joining pieces would keep a tree of them).
  return String.fromCharCode(...bytes);
}

function unpackCorrelation(bytes: string): string {
  let hex = CORRELATION_PREFIX;
  for (let i = 0; i < bytes.length; i++) hex += bytes.charCodeAt(i).toString(16).padStart(2, '0');
  return hex;
}

function pack(o: BuildOptions): number {
  return o.pages
    | (CONTENT_KINDS.indexOf(o.kind) << KIND_SHIFT)
    | (BUILD_TYPES.indexOf(o.buildType) << TYPE_SHIFT)
    | (RESEARCH_POLICIES.indexOf(o.researchPolicy) << POLICY_SHIFT)
    | (RESEARCH_MODES.indexOf(o.researchMode) << MODE_SHIFT)
    | (QUALITY_MODES.indexOf(o.qualityMode) << QUALITY_SHIFT)
    | (o.generateImages ? 1 << IMAGES_SHIFT : 0);
}

/** What few builds have: kind options, named library items, a planned failure. */
interface RareParts {
  failure?: ScheduledFailure;
  pressRelease?: PressReleaseOptions;
  socialPlatforms?: SocialPlatform[];
  libraryItemIds?: string[];
  libraryItems: readonly LibraryItemSnapshot[];
}

/** Most builds name no library item: they share one empty list. */
export const NO_LIBRARY_ITEMS: readonly LibraryItemSnapshot[] = Object.freeze([]);

/** What a build is besides its options (the objective as kept: it may be a shared copy). */
export interface BuildFacts {
  objective: string;
  id: string;
  cost: number;
  correlationId: string;
  idempotencyKey: string | null;
  createdAt: number;
  schedule: PipelineSchedule;
  target: TargetSnapshot;
  libraryItems: readonly LibraryItemSnapshot[];
  deliverableIds: string[];
}

/** Options and facts in one object, as a restore or a test may hand them. */
export type NewBuild = BuildOptions & BuildFacts;

/** The plain form of a build in a saved simulation. */
export interface SavedBuild extends Omit<NewBuild, 'schedule'> {
  accountId: string;
  targetId: string;
  schedule: ScheduleTimes;
}

export class Build implements BuildRecord, PipelineSchedule {
  readonly id: string;
  readonly objective: string;
  readonly idempotencyKey: string | null;
  readonly cost: number;
  readonly createdAt: number;
  readonly target: TargetSnapshot;
  // Milliseconds from createdAt to the start of each stage, and to completion.
  private readonly researchingAfter: number;
  private readonly draftingAfter: number;
  private readonly critiquingAfter: number;
  private readonly mergingAfter: number;
  private readonly completeAfter: number;
  private readonly packed: number;
  /** The correlation id, or its bytes (see PACKED_CORRELATION). */
  private readonly correlation: string;
  private readonly deliverable: string | string[];
  private readonly rare: RareParts | null;

  constructor(options: BuildOptions, b: BuildFacts) {
    this.id = b.id;
    this.objective = b.objective;
    const packedCorrelation = ENGINE_CORRELATION.test(b.correlationId);
    this.correlation = packedCorrelation ? packCorrelation(b.correlationId) : b.correlationId;
    this.idempotencyKey = b.idempotencyKey;
    this.cost = b.cost;
    this.createdAt = b.createdAt;
    const s = b.schedule;
    this.researchingAfter = s.stageStart(0) - b.createdAt;
    this.draftingAfter = s.stageStart(1) - b.createdAt;
    this.critiquingAfter = s.stageStart(2) - b.createdAt;
    this.mergingAfter = s.stageStart(3) - b.createdAt;
    this.completeAfter = s.completeAt - b.createdAt;
    this.target = b.target;
    this.packed = pack(options) | (packedCorrelation ? PACKED_CORRELATION : 0);
    this.deliverable = b.deliverableIds.length === 1 ? (b.deliverableIds[0] as string) : b.deliverableIds;
    const o = options;
    const rare = o.pressRelease !== undefined || o.socialPlatforms !== undefined || o.libraryItemIds !== undefined || b.libraryItems.length > 0 || s.failure !== null;
    this.rare = rare
      ? {
          ...(s.failure === null ? {} : { failure: s.failure }),
          ...(o.pressRelease === undefined ? {} : { pressRelease: o.pressRelease }),
          ...(o.socialPlatforms === undefined ? {} : { socialPlatforms: o.socialPlatforms }),
          ...(o.libraryItemIds === undefined ? {} : { libraryItemIds: o.libraryItemIds }),
          libraryItems: b.libraryItems,
        }
      : null;
  }

  /** Back from the saved form. */
  static fromSaved(saved: SavedBuild): Build {
    return new Build(saved, { ...saved, schedule: scheduleOf(saved.schedule) });
  }

  get completeAt(): number { return this.createdAt + this.completeAfter; }
  get failure(): ScheduledFailure | null { return this.rare?.failure ?? null; }
  stageStart(i: number): number {
    const after = i === 0 ? this.researchingAfter : i === 1 ? this.draftingAfter : i === 2 ? this.critiquingAfter : this.mergingAfter;
    return this.createdAt + after;
  }

  get correlationId(): string { return this.packed & PACKED_CORRELATION ? unpackCorrelation(this.correlation) : this.correlation; }
  get targetId(): string { return this.target.id; }
  get pages(): number { return this.packed & 31; }
  get kind(): ContentKind { return CONTENT_KINDS[(this.packed >> KIND_SHIFT) & 15] as ContentKind; }
  get buildType(): BuildType { return BUILD_TYPES[(this.packed >> TYPE_SHIFT) & 1] as BuildType; }
  get researchPolicy(): ResearchPolicy { return RESEARCH_POLICIES[(this.packed >> POLICY_SHIFT) & 3] as ResearchPolicy; }
  get researchMode(): ResearchMode { return RESEARCH_MODES[(this.packed >> MODE_SHIFT) & 1] as ResearchMode; }
  get qualityMode(): QualityMode { return QUALITY_MODES[(this.packed >> QUALITY_SHIFT) & 1] as QualityMode; }
  get generateImages(): boolean { return (this.packed & (1 << IMAGES_SHIFT)) !== 0; }
  get pressRelease(): PressReleaseOptions | undefined { return this.rare?.pressRelease; }
  get socialPlatforms(): SocialPlatform[] | undefined { return this.rare?.socialPlatforms; }
  get libraryItemIds(): string[] | undefined { return this.rare?.libraryItemIds; }
  get libraryItems(): readonly LibraryItemSnapshot[] { return this.rare?.libraryItems ?? NO_LIBRARY_ITEMS; }
  /** The build is its own schedule: the fields are here, no object apart. */
  get schedule(): PipelineSchedule { return this; }
  get deliverableIds(): readonly string[] { return typeof this.deliverable === 'string' ? [this.deliverable] : this.deliverable; }

  /** The page of one of its deliverables, or -1. */
  pageOf(deliverableId: string): number {
    return typeof this.deliverable === 'string' ? (this.deliverable === deliverableId ? 0 : -1) : this.deliverable.indexOf(deliverableId);
  }

  /** The plain form, with the account that holds it (the build does not keep its account's id). */
  toSaved(accountId: string): SavedBuild {
    return {
      id: this.id, accountId, targetId: this.targetId, buildType: this.buildType, kind: this.kind,
      objective: this.objective, researchPolicy: this.researchPolicy, researchMode: this.researchMode, qualityMode: this.qualityMode,
      pages: this.pages, generateImages: this.generateImages,
      ...(this.pressRelease === undefined ? {} : { pressRelease: this.pressRelease }),
      ...(this.socialPlatforms === undefined ? {} : { socialPlatforms: this.socialPlatforms }),
      ...(this.libraryItemIds === undefined ? {} : { libraryItemIds: this.libraryItemIds }),
      cost: this.cost, correlationId: this.correlationId, idempotencyKey: this.idempotencyKey, createdAt: this.createdAt,
      schedule: scheduleTimes(this),
      target: this.target, libraryItems: this.libraryItems, deliverableIds: [...this.deliverableIds],
    };
  }
}
