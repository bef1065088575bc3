/**
 * SEO from the brand kit: primary keywords in the title or lead paragraph and in the meta
 * description, secondary keywords somewhere in the body, meta description within its limit.
 */
import type { Rng } from '../random/rng.js';
import { capitalize, fitText, joinList, oneLine } from './text.js';
import type { BrandKit } from './types.js';

const LEAD = [
  'Along the way, we cover {kws} in practical terms.',
  'Expect practical notes on {kws}.',
  'It pulls together what matters most about {kws}.',
  'You will find clear guidance on {kws} here.',
];

const SECONDARY = [
  'Related subjects such as {kws} come up as well, because they shape the results in practice.',
  'We also touch on {kws}, since it all connects to {focus}.',
  'It is worth looking at {kws} too, since each one shapes the decisions here.',
];

function keywords(list: readonly string[]): string[] {
  return list.map(oneLine).filter((k) => k.length > 0);
}

function containsAll(text: string, words: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return words.every((w) => lower.includes(w.toLowerCase()));
}

/** A sentence naming the primary keywords the title lacks; empty if the title has them all. */
export function seoLeadSentence(kit: BrandKit, title: string, rng: Rng): string {
  const lowerTitle = title.toLowerCase();
  const missing = keywords(kit.seo.primaryKeywords).filter((k) => !lowerTitle.includes(k.toLowerCase()));
  if (missing.length === 0) return '';
  return rng.pick(LEAD).replace('{kws}', () => joinList(missing));
}

/** A sentence naming the secondary keywords; empty if there are none. */
export function seoSecondarySentence(kit: BrandKit, focus: string, rng: Rng): string {
  const list = keywords(kit.seo.secondaryKeywords);
  if (list.length === 0) return '';
  return rng.pick(SECONDARY).replace('{kws}', () => joinList(list)).replace('{focus}', () => focus);
}

/** The primary keywords first, then the summary, cut at a word boundary to the limit. */
export function metaDescription(kit: BrandKit, summary: string): string {
  const max = Math.max(1, kit.seo.metaDescriptionMaxLength || 160);
  const primary = keywords(kit.seo.primaryKeywords);
  const body = oneLine(summary);
  const plain = fitText(body, max);
  if (primary.length === 0 || containsAll(plain, primary)) return plain;
  return fitText(`${capitalize(joinList(primary))}: ${body}`, max);
}
