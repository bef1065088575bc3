/**
 * Trending topic ideas: subjects from the seed phrase and the target (SEO keywords,
 * description, name), each paired with an angle from the content phrase banks. Interest
 * is seeded by the subject, the angle and the UTC day, so it moves like a trend from one
 * day to the next and stays put within a day.
 */
import { type Angle, ANGLES } from '../content/phrases.js';
import { audienceOf, parseObjective } from '../content/objective.js';
import { Prose } from '../content/prose.js';
import { decapitalize, fitText, oneLine } from '../content/text.js';
import { detectTone, toneProfile } from '../content/tones.js';
import type { ContentKind, TargetSnapshot } from '../content/types.js';
import { Rng } from '../random/rng.js';
import { KIND_LABELS, withArticle, withoutMarkers } from './kinds.js';

export interface TopicRequest {
  seed: string;
  target?: TargetSnapshot;
  phrase?: string;
  kind?: ContentKind;
  count: number;
  now: number;
}

export interface TopicIdea {
  title: string;
  angle: string;
  kind: ContentKind;
  estimatedInterest: number;
  keywords: string[];
  objective: string;
}

/** The kind each angle suits best when the request names none. */
const ANGLE_KINDS: Readonly<Record<string, ContentKind>> = {
  essentials: 'blog', 'getting-started': 'how_to', mistakes: 'blog', strategy: 'resource', measuring: 'how_to',
  trends: 'news', lessons: 'blog', tools: 'web_page', myths: 'social', advanced: 'doc', budget: 'email', playbook: 'resource',
};

/** The search phrase each angle adds to its subject. */
const ANGLE_KEYWORDS: Readonly<Record<string, string>> = {
  essentials: 'basics', 'getting-started': 'for beginners', mistakes: 'mistakes', strategy: 'strategy', measuring: 'metrics',
  trends: 'trends', lessons: 'examples', tools: 'tools', myths: 'myths', advanced: 'advanced', budget: 'on a budget', playbook: 'checklist',
};

/** Subjects to write about, most specific first, without duplicates. */
function subjects(request: TopicRequest): string[] {
  const out: string[] = [];
  const add = (text: string | undefined) => {
    const clean = withoutMarkers(oneLine(text ?? ''));
    if (!clean) return;
    const focus = parseObjective(clean, clean).focus || clean;
    if (!out.some((s) => s.toLowerCase() === focus.toLowerCase())) out.push(fitText(focus, 80));
  };
  add(request.phrase);
  const target = request.target;
  if (target) {
    for (const keyword of target.brandKit.seo.primaryKeywords) add(keyword);
    for (const keyword of target.brandKit.seo.secondaryKeywords) add(keyword);
    // What the brand is ("specialty coffee roaster") only when its keywords say too little.
    if (out.length < 2) add(target.description);
    if (out.length === 0) add(target.name);
  }
  return out;
}

export function suggestTopics(request: TopicRequest): TopicIdea[] {
  const day = new Date(request.now).toISOString().slice(0, 10);
  const year = new Date(request.now).getUTCFullYear();
  const list = subjects(request);
  const brand = request.target ? oneLine(request.target.name) : '';
  const audience = (request.phrase && audienceOf(request.phrase)) || (request.target && audienceOf(request.target.description)) || 'your audience';
  const tone = toneProfile(request.target ? detectTone(request.target.brandKit.tone, request.target.brandKit.voice) : 'neutral');
  const rng = new Rng(request.seed, 'topics', list.join('\u0000'), request.kind ?? '', brand);
  const angles = rng.sample(ANGLES, ANGLES.length);
  const ideas: TopicIdea[] = [];
  for (let i = 0; i < request.count; i++) {
    const subject = list[i % list.length] as string;
    const angle = angles[i % angles.length] as Angle;
    const prose = new Prose({ topic: subject, focus: subject, audience, brand: brand || 'your brand', year: String(year) }, tone, new Rng(request.seed, 'topic', subject, angle.id));
    const title = fitText(prose.pick(angle.titles), 160);
    const kind = request.kind ?? (ANGLE_KINDS[angle.id] as ContentKind);
    const interest = new Rng(request.seed, 'interest', subject.toLowerCase(), angle.id, day).int(28, 96);
    ideas.push({
      title,
      angle: angle.label,
      kind,
      estimatedInterest: angle.id === 'trends' ? Math.min(100, interest + 4) : interest,
      keywords: [subject.toLowerCase(), `${subject.toLowerCase()} ${ANGLE_KEYWORDS[angle.id]}`, ...(angle.id === 'trends' ? [`${subject.toLowerCase()} ${year}`] : [])],
      objective: `Write ${withArticle(KIND_LABELS[kind])} titled \u201c${title}\u201d for ${audience}: ${decapitalize(prose.pick(angle.headings))}.`,
    });
  }
  return ideas.sort((a, b) => b.estimatedInterest - a.estimatedInterest || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
}

