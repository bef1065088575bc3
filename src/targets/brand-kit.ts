import type { BrandKit } from '../content/types.js';

/** What a brand kit holds when the client leaves a part out (inferred defaults). */
export function defaultBrandKit(): BrandKit {
  return {
    voice: 'clear and knowledgeable',
    tone: 'friendly',
    seo: { primaryKeywords: [], secondaryKeywords: [], metaDescriptionMaxLength: 160 },
    pressRelease: { boilerplate: '', mediaContact: null, datelineCity: 'New York', defaultQuoteMode: 'generate' },
  };
}

export interface BrandKitInput {
  voice?: string;
  tone?: string;
  seo?: Partial<BrandKit['seo']>;
  pressRelease?: Partial<BrandKit['pressRelease']>;
}

/** Applies a partial brand kit over a whole one, part by part, without touching `base`. */
export function mergeBrandKit(base: BrandKit, input: BrandKitInput | undefined): BrandKit {
  if (!input) return structuredClone(base);
  return {
    voice: input.voice ?? base.voice,
    tone: input.tone ?? base.tone,
    seo: { ...base.seo, ...structuredClone(input.seo ?? {}) },
    pressRelease: { ...base.pressRelease, ...structuredClone(input.pressRelease ?? {}) },
  };
}
