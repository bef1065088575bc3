/**
 * Build-brief autofill: a short prompt becomes a complete, valid build request. Each choice
 * comes from words of the prompt (an announcement is a press release, "in-depth" means deep
 * research, "a 5-part series" a suite of 5 pages) and is explained in `rationale`.
 */
import { audienceOf, parseObjective } from '../content/objective.js';
import { fitText, joinList, oneLine } from '../content/text.js';
import type { ContentKind, TargetSnapshot } from '../content/types.js';
import { buildCost } from '../ledger/prices.js';
import type { BuildOptions, QualityMode, ResearchMode, ResearchPolicy } from '../store/records.js';
import { KIND_LABELS, withArticle, withoutMarkers } from './kinds.js';

/** A ready-to-send build request: the core build options and the target. */
export type SuggestedBrief = Pick<
  BuildOptions,
  'buildType' | 'kind' | 'objective' | 'researchPolicy' | 'researchMode' | 'qualityMode' | 'pages' | 'generateImages'
> & { targetId: string };

export interface BriefSuggestion {
  brief: SuggestedBrief;
  estimatedCost: number;
  rationale: string[];
}

/** First match wins: the more specific formats come before the general ones. */
const KIND_RULES: ReadonlyArray<[ContentKind, RegExp, string]> = [
  ['press_release', /\b(?:press release|announce\w*|announcement|launch(?:es|ing)?|unveil\w*)\b/i, 'it announces something'],
  ['email', /\b(?:e-?mails?|newsletters?|drip|mailing)\b/i, 'it asks for an email'],
  ['social', /\b(?:social(?: media)? posts?|social kit|tweets?|linkedin posts?|instagram (?:posts?|captions?)|threads posts?)\b/i, 'it asks for social posts'],
  ['doc', /\b(?:docs|documentation|api reference|readme|integration guide|developer guide|sdk guide)\b/i, 'it asks for documentation'],
  ['how_to', /\b(?:how to|how-to|step[- ]by[- ]step|tutorial|walkthrough)\b/i, 'it asks how to do something'],
  ['resource', /\b(?:checklists?|templates?|white ?papers?|e-?books?|worksheets?|toolkits?|downloadable|cheat ?sheets?)\b/i, 'it asks for a downloadable resource'],
  ['web_page', /\b(?:landing pages?|web ?pages?|home ?page|product pages?|about page|services? pages?)\b/i, 'it asks for a web page'],
  ['news', /\b(?:news|industry update|this week|this month|report(?:s|ing)? on)\b/i, 'it is news'],
  ['image', /\b(?:infographics?|illustrations? of|image set|banners?)\b/i, 'it asks for visuals'],
];

const NUMBER_WORDS: Readonly<Record<string, number>> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12 };
const SUITE = /\b(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|twelve)[- ](?:part|articles?|posts?|pages?|pieces?|emails?|chapters?)\b/i;
const SERIES = /\b(?:series|suite|content hub|pillar and cluster)\b/i;
const DEEP = /\b(?:in-depth|in depth|deep[- ]dive|comprehensive|thorough|data-driven|definitive|long-form|research-heavy)\b/i;
const PREMIUM = /\b(?:premium|flagship|polished|high[- ]quality|executive|pillar|showcase)\b/i;
const IMAGES = /\b(?:images?|illustrated|visuals?|pictures?|photos?|graphics?)\b/i;
const NO_RESEARCH = /\b(?:no research|opinion|personal take|op-ed|from experience)\b/i;
const LIGHT_RESEARCH = /\b(?:quick|short|brief|light)\b/i;

function chooseKind(prompt: string, forced: ContentKind | undefined, why: string[]): ContentKind {
  if (forced) {
    why.push(`kind ${forced}: as requested`);
    return forced;
  }
  for (const [kind, pattern, reason] of KIND_RULES) {
    if (pattern.test(prompt)) {
      why.push(`kind ${kind}: ${reason}`);
      return kind;
    }
  }
  why.push('kind blog: the prompt names no other format');
  return 'blog';
}

function choosePages(prompt: string, why: string[]): number {
  const count = SUITE.exec(prompt);
  if (count) {
    const raw = count[1] as string;
    const n = /^\d+$/.test(raw) ? Number(raw) : (NUMBER_WORDS[raw.toLowerCase()] as number);
    if (n >= 2) {
      const pages = Math.min(20, n);
      why.push(`buildType suite with ${pages} pages: the prompt asks for ${raw} pieces${n > 20 ? ' (20 at most)' : ''}`);
      return pages;
    }
  }
  if (SERIES.test(prompt)) {
    why.push('buildType suite with 3 pages: the prompt asks for a series');
    return 3;
  }
  why.push('buildType single: one piece');
  return 1;
}

export function suggestBrief(prompt: string, target: TargetSnapshot, forcedKind?: ContentKind): BriefSuggestion {
  const clean = withoutMarkers(oneLine(prompt)) || target.name;
  const why: string[] = [];
  const kind = chooseKind(clean, forcedKind, why);
  const pages = choosePages(clean, why);
  const researchPolicy: ResearchPolicy = NO_RESEARCH.test(clean) ? 'none' : LIGHT_RESEARCH.test(clean) ? 'optional' : 'required';
  why.push(`researchPolicy ${researchPolicy}: ${researchPolicy === 'none' ? 'an opinion piece needs no sources' : researchPolicy === 'optional' ? 'a short piece may skip research' : 'claims are backed by sources'}`);
  const researchMode: ResearchMode = researchPolicy !== 'none' && DEEP.test(clean) ? 'deep' : 'standard';
  if (researchMode === 'deep') why.push('researchMode deep: the prompt asks for depth');
  const qualityMode: QualityMode = PREMIUM.test(clean) ? 'premium' : 'standard';
  if (qualityMode === 'premium') why.push('qualityMode premium: the prompt asks for a flagship piece');
  const generateImages = kind !== 'image' && IMAGES.test(clean);
  if (generateImages) why.push('generateImages: the prompt mentions visuals');

  const parts = parseObjective(subjectOf(clean), target.name);
  const audience = parts.audience || audienceOf(target.description);
  const keywords = target.brandKit.seo.primaryKeywords.map(oneLine).filter((k) => k.length > 0);
  const label = pages > 1 ? `series of ${pages} ${plural(KIND_LABELS[kind])}` : KIND_LABELS[kind];
  let objective = `Write ${withArticle(label)} about ${fitText(parts.topic, 300)}`;
  if (audience && !parts.topic.toLowerCase().includes(audience.toLowerCase())) objective += ` for ${audience}`;
  objective += '.';
  if (keywords.length > 0) objective += ` Work in the keyword${keywords.length > 1 ? 's' : ''} ${joinList(keywords)}.`;

  const brief: SuggestedBrief = {
    targetId: target.id,
    buildType: pages > 1 ? 'suite' : 'single',
    kind,
    objective,
    researchPolicy,
    researchMode,
    qualityMode,
    pages,
    generateImages,
  };
  return { brief, estimatedCost: buildCost(brief), rationale: why };
}

const WITH_VISUALS = /\bwith (?:images|visuals|photos|pictures|illustrations|graphics)\b/gi;
const FORMAT_WORDS = /\b(?:opinion|personal take|op-ed|quick|short|brief|light|pieces?|articles?|posts?)\b/gi;

/** The prompt without the words that chose the format ("a 5-part in-depth series on"): what it is about. */
function subjectOf(prompt: string): string {
  let text = prompt;
  for (const pattern of [SUITE, SERIES, DEEP, PREMIUM, WITH_VISUALS, NO_RESEARCH]) text = text.replace(new RegExp(pattern.source, 'gi'), ' ');
  text = text.replace(FORMAT_WORDS, ' ').replace(/\s+/g, ' ').trim();
  // What is left of "a 5-part series on X" is "a on X": drop the dangling article and preposition.
  text = text.replace(/^(?:(?:a|an|the|write|create|draft|give me|we need|i need)\s+)*(?:(?:on|about|of|for|covering)\s+)?/i, '');
  return text || prompt;
}

/** "blog post" -> "blog posts", "set of images" -> "sets of images". */
function plural(label: string): string {
  return label.startsWith('set of ') ? `sets${label.slice(3)}` : `${label}s`;
}
