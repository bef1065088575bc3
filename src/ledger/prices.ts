import type { ContentKind } from '../content/types.js';
import type { BuildOptions } from '../store/records.js';

/**
 * Token prices. The spec fixes one point, a single standard blog post with research costs
 * 1 token, and says cost grows with pages, research mode, quality mode, image generation
 * and kind; the rest of this table is inferred (and documented in openapi.yaml).
 */
export const KIND_PRICES: Readonly<Record<ContentKind, number>> = {
  blog: 1,
  web_page: 1,
  news: 1,
  how_to: 1,
  doc: 2,
  resource: 2,
  image: 1,
  social: 1,
  email: 1,
  press_release: 2,
};

export const DEEP_RESEARCH_SURCHARGE = 1;
export const PREMIUM_QUALITY_SURCHARGE = 1;
export const IMAGE_GENERATION_SURCHARGE = 1;

export type PricedOptions = Pick<BuildOptions, 'kind' | 'pages' | 'researchMode' | 'qualityMode' | 'generateImages'>;

/** Tokens a build costs: the price of one page times the page count. */
export function buildCost(options: PricedOptions): number {
  const perPage =
    KIND_PRICES[options.kind] +
    (options.researchMode === 'deep' ? DEEP_RESEARCH_SURCHARGE : 0) +
    (options.qualityMode === 'premium' ? PREMIUM_QUALITY_SURCHARGE : 0) +
    (options.generateImages ? IMAGE_GENERATION_SURCHARGE : 0);
  return perPage * options.pages;
}
