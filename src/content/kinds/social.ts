/**
 * Social posts: one per platform, each shaped for its platform and always within the
 * platform's character limit, hashtags included (counted in code points, as platforms do).
 */
import type { GenContext } from '../context.js';
import { type Block, br, em, h2, p, type Inline } from '../doc-model.js';
import { contentBlocks, ctaBlocks } from '../library.js';
import { ADVICE, INSIGHT } from '../phrases.js';
import { charLength, fitText, pascalWords } from '../text.js';
import type { SocialPlatform } from '../types.js';
import type { KindResult } from './kind.js';

export const PLATFORM_LIMITS: Record<SocialPlatform, number> = {
  x: 280,
  threads: 500,
  linkedin: 3000,
  facebook: 63206,
  instagram: 2200,
};

const PLATFORM_NAMES: Record<SocialPlatform, string> = {
  x: 'X', threads: 'Threads', linkedin: 'LinkedIn', facebook: 'Facebook', instagram: 'Instagram',
};

const HASHTAG_COUNT: Record<SocialPlatform, number> = { x: 2, threads: 3, linkedin: 4, facebook: 2, instagram: 8 };

const QUESTIONS = ['How are you approaching {focus} this year?', 'What has worked for you?', 'What would you add?', 'Where would you start?'];

export interface SocialPost {
  platform: SocialPlatform;
  text: string;
  hashtags: string[];
  characterCount: number;
  limit: number;
}

/** A post part; optional parts are dropped (last first) when the post runs long. */
interface PostPart {
  text: string;
  optional: boolean;
}

function hashtagsFor(ctx: GenContext): string[] {
  const seo = ctx.input.target.brandKit.seo;
  const candidates = [ctx.focus, ctx.focusShort, ...seo.primaryKeywords, ctx.audience, ctx.brand, ...seo.secondaryKeywords, ...ctx.objective.keywords.filter((k) => k.length > 4), 'Insights'];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const candidate of candidates) {
    const tag = pascalWords(candidate).slice(0, 28);
    const key = tag.toLowerCase();
    if (tag.length < 2 || /^\d+$/.test(tag) || seen.has(key)) continue;
    seen.add(key);
    out.push(`#${tag}`);
  }
  return out;
}

/** Joins parts and hashtags, dropping optional parts, then hashtags, then cutting, to fit. */
export function fitPost(parts: readonly PostPart[], hashtags: readonly string[], limit: number): { text: string; hashtags: string[] } {
  const kept = parts.slice();
  const tags = hashtags.slice();
  const compose = (): string => {
    const body = kept.map((part) => part.text).join('\n\n');
    return tags.length > 0 ? `${body}\n\n${tags.join(' ')}` : body;
  };
  let text = compose();
  while (charLength(text) > limit) {
    const optional = kept.map((part) => part.optional).lastIndexOf(true);
    if (optional >= 0) kept.splice(optional, 1);
    else if (tags.length > 1) tags.pop();
    else {
      const tagRoom = tags.length > 0 ? charLength(tags[0]!) + 2 : 0;
      const body = kept.map((part) => part.text).join('\n\n');
      // fitText measures UTF-16 units, which is never fewer than code points.
      kept.splice(0, kept.length, { text: fitText(body, Math.max(1, limit - tagRoom)), optional: false });
      text = compose();
      if (charLength(text) > limit) tags.length = 0;
    }
    text = compose();
  }
  return { text, hashtags: tags };
}

function partsFor(ctx: GenContext, platform: SocialPlatform, link: string): PostPart[] {
  const { prose } = ctx;
  const hook = prose.pick(ctx.tone.hooks);
  const req = (text: string): PostPart => ({ text, optional: false });
  const opt = (text: string): PostPart => ({ text, optional: true });
  switch (platform) {
    case 'x':
      return [req(hook), opt(prose.pick(ADVICE)), opt(link)];
    case 'threads':
      return [req(hook), opt(prose.pick(INSIGHT)), opt(prose.pick(QUESTIONS))];
    case 'linkedin':
      return [
        req(hook),
        req(`${prose.pick(INSIGHT)} ${prose.pick(ADVICE)}`),
        opt(`At ${ctx.brand}, we put together a practical look at ${ctx.topic}. Three ideas to start with:`),
        opt(prose.many(ADVICE, 3).map((tip) => `- ${tip}`).join('\n')),
        opt(prose.pick(QUESTIONS)),
        opt(`Read more: ${link}`),
      ];
    case 'facebook':
      return [req(hook), req(prose.pick(INSIGHT)), opt(prose.pick(ADVICE)), opt(`Find out more: ${link}`)];
    case 'instagram':
      return [req(hook), req(prose.pick(INSIGHT)), opt(prose.many(ADVICE, 2).map((tip) => `\u2022 ${tip}`).join('\n')), opt('Link in bio.')];
  }
}

/** Post text as a quote: blank lines separate paragraphs, single newlines become line breaks. */
function postQuote(text: string): Block {
  const paragraphs = text.split(/\n{2,}/).map((chunk): Inline[] => {
    const out: Inline[] = [];
    chunk.split('\n').forEach((line, i) => {
      if (i > 0) out.push(br);
      out.push({ t: 'text', text: line });
    });
    return out;
  });
  return { t: 'quote', paragraphs };
}

export function writeSocial(ctx: GenContext): KindResult {
  const { prose } = ctx;
  const requested = ctx.input.socialPlatforms?.length ? ctx.input.socialPlatforms : (['x', 'linkedin'] as SocialPlatform[]);
  const platforms = [...new Set(requested)].filter((pl) => pl in PLATFORM_LIMITS);
  const tags = hashtagsFor(ctx);
  const cta = ctx.callToAction();
  const posts: SocialPost[] = platforms.map((platform) => {
    const limit = PLATFORM_LIMITS[platform];
    const fitted = fitPost(partsFor(ctx, platform, cta.url), tags.slice(0, HASHTAG_COUNT[platform]), limit);
    return { platform, text: fitted.text, hashtags: fitted.hashtags, characterCount: charLength(fitted.text), limit };
  });

  const title = ctx.suiteTitle(prose.fill(prose.rng.pick(['Social Posts: {FocusT}', '{FocusT}: Social Campaign', 'Social Media Kit: {FocusT}'])));
  const names = platforms.map((pl) => PLATFORM_NAMES[pl]);
  const blocks: Block[] = [
    ctx.leadPara(title, [`${posts.length} ready-to-publish ${posts.length === 1 ? 'post' : 'posts'} for ${names.join(', ')} about ${ctx.topic}, written in ${ctx.brand}\u2019s voice.`]),
  ];
  posts.forEach((post) => {
    blocks.push(h2(PLATFORM_NAMES[post.platform]), postQuote(post.text), p(em(`${post.characterCount} of ${post.limit} characters`)));
  });

  const notes = prose.paragraph([INSIGHT]);
  const secondary = ctx.secondarySentence();
  if (secondary) notes.push(secondary);
  blocks.push(h2('Research notes'), ctx.claimPara(notes));
  const facts = ctx.remainingClaims();
  if (facts) blocks.push(facts);
  blocks.push(...contentBlocks(ctx.library), ...ctaBlocks(ctx.library));

  return {
    title,
    summary: `Social posts for ${names.join(', ')} about ${ctx.topic}.`,
    blocks,
    kindData: { posts },
  };
}
