/** A realistic generator input, for tests and demos: override any field. */
import type { ContentInput, TargetSnapshot } from './types.js';

export const SAMPLE_TARGET: TargetSnapshot = {
  id: '6f1c2a9e-3b7d-4c1a-9e2f-0a1b2c3d4e5f',
  name: 'Crumb & Co',
  slug: 'crumb-co',
  description: 'A marketing studio for independent bakeries.',
  brandKit: {
    voice: 'Helpful expert who speaks plainly',
    tone: 'friendly',
    seo: {
      primaryKeywords: ['bakery marketing'],
      secondaryKeywords: ['local SEO', 'Instagram Reels'],
      metaDescriptionMaxLength: 155,
    },
    pressRelease: {
      boilerplate: 'Crumb & Co is a marketing studio that helps independent bakeries grow their local customer base.',
      mediaContact: { name: 'Dana Ortiz', email: 'press@crumbandco.example', phone: '+1 503 555 0142' },
      datelineCity: 'Portland',
      defaultQuoteMode: 'polish',
    },
  },
};

export function sampleInput(overrides: Partial<ContentInput> = {}): ContentInput {
  return {
    seed: 'sample-seed',
    buildId: '0b6a4c1e-5d2f-4e8a-9b7c-1d2e3f4a5b6c',
    deliverableId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    pageIndex: 0,
    pageCount: 1,
    kind: 'blog',
    objective: 'Write a blog post about how small bakeries can use Instagram to attract local customers',
    researchPolicy: 'required',
    researchMode: 'standard',
    qualityMode: 'standard',
    generateImages: false,
    target: SAMPLE_TARGET,
    completedAt: '2025-03-04T15:30:00.000Z',
    ...overrides,
  };
}
