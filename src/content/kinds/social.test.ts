import { describe, expect, it } from 'vitest';
import { generateContent } from '../generate.js';
import { sampleInput } from '../sample-input.js';
import { charLength } from '../text.js';
import type { SocialPlatform } from '../types.js';
import { fitPost, PLATFORM_LIMITS, type SocialPost } from './social.js';

const ALL: SocialPlatform[] = ['x', 'threads', 'linkedin', 'facebook', 'instagram'];

function posts(overrides: Parameters<typeof sampleInput>[0]): SocialPost[] {
  return generateContent(sampleInput({ kind: 'social', ...overrides })).kindData.posts as SocialPost[];
}

describe('social', () => {
  it('writes one post each for X and LinkedIn by default', () => {
    expect(posts({}).map((p) => p.platform)).toEqual(['x', 'linkedin']);
  });

  it('keeps every post within its platform limit, hashtags included', () => {
    const objectives = [
      'Write social posts about how small bakeries can use Instagram to attract local customers',
      `Announce ${'our extraordinarily comprehensive '.repeat(40)}sourdough subscription`,
      'Supercalifragilisticexpialidocious'.repeat(30),
      '\u{1F950}\u{1F956} croissant season \u{1F950} '.repeat(60),
    ];
    for (const objective of objectives) {
      for (const [i, id] of ['a', 'b', 'c'].entries()) {
        for (const post of posts({ objective, socialPlatforms: ALL, deliverableId: id, qualityMode: i ? 'premium' : 'standard' })) {
          expect(post.limit).toBe(PLATFORM_LIMITS[post.platform]);
          expect(post.characterCount).toBe(charLength(post.text));
          expect(post.characterCount).toBeLessThanOrEqual(post.limit);
          expect(post.hashtags.length).toBeGreaterThanOrEqual(1);
          for (const tag of post.hashtags) {
            expect(tag).toMatch(/^#[\p{L}\p{N}]+$/u);
            expect(post.text).toContain(tag);
          }
        }
      }
    }
  });

  it('shapes posts per platform: LinkedIn longest, Instagram with the most hashtags', () => {
    const byPlatform = Object.fromEntries(posts({ socialPlatforms: ALL }).map((p) => [p.platform, p]));
    expect(byPlatform.linkedin!.characterCount).toBeGreaterThan(byPlatform.x!.characterCount);
    expect(byPlatform.instagram!.hashtags.length).toBeGreaterThan(byPlatform.x!.hashtags.length);
    expect(byPlatform.instagram!.text).toContain('Link in bio.');
  });

  it('shows each post in the Markdown with its character count', () => {
    const out = generateContent(sampleInput({ kind: 'social', socialPlatforms: ['threads', 'facebook'] }));
    for (const post of out.kindData.posts as SocialPost[]) {
      expect(out.markdown).toContain(`*${post.characterCount} of ${post.limit} characters*`);
      const firstLine = post.text.split('\n')[0]!;
      expect(out.markdown).toContain(`> ${firstLine}`);
    }
    expect(out.markdown).toContain('## Threads');
    expect(out.markdown).toContain('## Facebook');
  });

  it('fitPost drops optional parts first, then hashtags, then cuts the text', () => {
    const parts = [
      { text: 'Hook sentence here.', optional: false },
      { text: 'An optional sentence that is rather long.', optional: true },
    ];
    expect(fitPost(parts, ['#One', '#Two'], 200).text).toBe('Hook sentence here.\n\nAn optional sentence that is rather long.\n\n#One #Two');
    expect(fitPost(parts, ['#One', '#Two'], 40).text).toBe('Hook sentence here.\n\n#One #Two');
    expect(fitPost(parts, ['#One', '#Two'], 26).text).toBe('Hook sentence here.\n\n#One');
    const cut = fitPost(parts, ['#One'], 20);
    expect(charLength(cut.text)).toBeLessThanOrEqual(20);
    expect(cut.text.endsWith('#One')).toBe(true);
  });
});
