/**
 * The contract between the build pipeline and the content generator. The generator is a
 * pure function of its input: the same input gives byte-identical output.
 */

export const CONTENT_KINDS = [
  'blog',
  'web_page',
  'news',
  'how_to',
  'doc',
  'resource',
  'image',
  'social',
  'email',
  'press_release',
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export type QuoteMode = 'verbatim' | 'polish' | 'generate';

export interface MediaContact {
  name: string;
  email: string;
  phone?: string;
}

export interface BrandKit {
  voice: string;
  tone: string;
  seo: {
    primaryKeywords: string[];
    secondaryKeywords: string[];
    metaDescriptionMaxLength: number;
  };
  pressRelease: {
    boilerplate: string;
    mediaContact: MediaContact | null;
    datelineCity: string;
    defaultQuoteMode: QuoteMode;
  };
}

export interface TargetSnapshot {
  id: string;
  name: string;
  slug: string;
  description: string;
  brandKit: BrandKit;
}

export interface PressReleaseQuoteInput {
  speaker: string;
  title?: string;
  /** Required for verbatim and polish; ignored (may be absent) for generate. */
  text?: string;
  mode?: QuoteMode;
}

export interface PressReleaseOptions {
  dateline?: { city?: string; date?: string };
  quotes?: PressReleaseQuoteInput[];
  boilerplate?: string;
  mediaContact?: MediaContact;
}

export type SocialPlatform = 'x' | 'linkedin' | 'facebook' | 'instagram' | 'threads';

/** A library item a build names, already resolved from the store. */
export interface LibraryItemSnapshot {
  id: string;
  type: 'cta' | 'glossary_term' | 'product_blurb' | 'brand_asset';
  name: string;
  content: string;
  url?: string;
}

export interface ContentInput {
  /** The simulator's seed: part of every random choice. */
  seed: string;
  buildId: string;
  deliverableId: string;
  /** 0-based page index and page count: a single build has one page. */
  pageIndex: number;
  pageCount: number;
  kind: ContentKind;
  objective: string;
  researchPolicy: 'required' | 'optional' | 'none';
  researchMode: 'standard' | 'deep';
  qualityMode: 'standard' | 'premium';
  generateImages: boolean;
  target: TargetSnapshot;
  /** ISO 8601 UTC: when the build finished; sources are "retrieved" shortly before. */
  completedAt: string;
  pressRelease?: PressReleaseOptions;
  socialPlatforms?: SocialPlatform[];
  libraryItems?: readonly LibraryItemSnapshot[];
}

export interface Source {
  id: string;
  title: string;
  url: string;
  publisher: string;
  retrievedAt: string;
}

export type ClaimVerdict = 'supported' | 'weak' | 'unsupported';

export interface Claim {
  id: string;
  text: string;
  verdict: ClaimVerdict;
  /** Ids of entries of `sources`; empty only for an unsupported claim. */
  sourceIds: string[];
  confidence: number;
}

export interface GeneratedImage {
  id: string;
  alt: string;
  /** A data: URL of an SVG image. */
  url: string;
  width: number;
  height: number;
}

export interface GeneratedContent {
  title: string;
  /** URL-style slug of the title. */
  slug: string;
  summary: string;
  metaDescription: string;
  markdown: string;
  /** The same article as a well-formed, escaped HTML document. */
  html: string;
  wordCount: number;
  sources: Source[];
  claims: Claim[];
  images: GeneratedImage[];
  /** Kind-specific structure (steps of a how-to, subject of an email, posts of social, ...). */
  kindData: Record<string, unknown>;
}
