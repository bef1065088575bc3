/**
 * Everything a kind needs to write its article: the parsed objective, the brand and its tone,
 * seeded randomness, the research (sources and claims), library items and SEO sentences.
 */
import { Rng } from '../random/rng.js';
import { ClaimQueue, makeClaims } from './claims.js';
import { type Block, type Inline, em, inl, type Part } from './doc-model.js';
import { DEFAULT_CITY, DEFAULT_AUDIENCES } from './vocabulary.js';
import { dateline, yearOf } from './dates.js';
import { groupLibrary, type LibraryGroups } from './library.js';
import { audienceOf, type ObjectiveParts, parseObjective, plainWords } from './objective.js';
import { ANGLES, type Angle } from './phrases.js';
import { Prose } from './prose.js';
import { seoLeadSentence, seoSecondarySentence } from './seo.js';
import { makeSources } from './sources.js';
import { fitText, oneLine, slugify } from './text.js';
import { detectTone, type ToneProfile, toneProfile } from './tones.js';
import type { ContentInput, Source } from './types.js';
import { safeUrl } from './urls.js';

export class GenContext {
  readonly brand: string;
  readonly description: string;
  readonly objective: ObjectiveParts;
  readonly topic: string;
  readonly focus: string;
  readonly focusShort: string;
  readonly audience: string;
  readonly tone: ToneProfile;
  readonly prose: Prose;
  readonly angle: Angle;
  readonly premium: boolean;
  readonly year: number;
  readonly siteUrl: string;
  readonly sources: Source[];
  readonly claims: ClaimQueue;
  readonly library: LibraryGroups;

  constructor(readonly input: ContentInput) {
    const { target } = input;
    this.brand = oneLine(target.name) || 'Our team';
    this.description = oneLine(target.description);
    this.objective = parseObjective(input.objective, this.brand);
    this.topic = this.objective.topic;
    // Focus text is built from plain words only (claims repeat it verbatim), never raw user text.
    this.focus = this.objective.focus || plainWords(this.brand) || 'our work';
    this.focusShort = this.objective.focusShort || this.focus;
    // Who it is for: the objective says, else the target's description ("... for bakeries"), else a default.
    this.audience =
      this.objective.audience || audienceOf(this.description) || this.rng('audience').pick(DEFAULT_AUDIENCES);
    this.tone = toneProfile(detectTone(target.brandKit.tone, target.brandKit.voice));
    this.premium = input.qualityMode === 'premium';
    this.year = yearOf(input.completedAt);
    this.siteUrl = `https://www.${slugify(target.slug || target.name, 40)}.com`;
    const offset = new Rng(input.seed, input.buildId, 'angle').int(0, ANGLES.length - 1);
    this.angle = ANGLES[(offset + input.pageIndex) % ANGLES.length]!;
    this.prose = new Prose(
      { topic: this.topic, focus: this.focus, focusShort: this.focusShort, audience: this.audience, brand: this.brand, year: String(this.year) },
      this.tone,
      this.rng('prose'),
    );
    this.sources = makeSources(input, this.focusShort, this.audience, this.year, this.rng('sources'));
    const drafts = makeClaims(input.kind, this.premium, { focus: this.focusShort, audience: this.audience, year: this.year }, this.sources, this.rng('claims'));
    this.claims = new ClaimQueue(drafts, this.sources);
    this.library = groupLibrary(input.libraryItems);
  }

  /** A generator for one concern of this deliverable. */
  rng(label: string): Rng {
    return new Rng(this.input.seed, this.input.deliverableId, label);
  }

  get isSuite(): boolean {
    return this.input.pageCount > 1;
  }

  /** Suite pages get the page's angle in the title, so every page is a distinct article. */
  suiteTitle(title: string, max = Infinity): string {
    if (!this.isSuite) return fitText(title, max);
    const part = this.input.pageCount > ANGLES.length ? ` (Part ${this.input.pageIndex + 1})` : '';
    const suffix = ` \u2014 ${this.angle.label}${part}`;
    return `${fitText(title, Math.max(10, max - suffix.length))}${suffix}`;
  }

  /** "Part 2 of 5 ..." under the lead of a suite page. */
  suiteLine(): Block | null {
    if (!this.isSuite) return null;
    const { pageIndex, pageCount } = this.input;
    return { t: 'p', content: [em(`Part ${pageIndex + 1} of ${pageCount} in a series on ${this.topic}: ${this.angle.label.toLowerCase()}.`)] };
  }

  /** Sentences as a paragraph, with the next claim (and its citations) after sentence `at`. */
  claimPara(sentences: readonly string[], at = 1): Block {
    const claim = this.claims.take();
    if (!claim) return { t: 'p', content: [inl(sentences.join(' '))] };
    const before = sentences.slice(0, at).join(' ');
    const after = sentences.slice(at).join(' ');
    const content: Inline[] = [];
    if (before) content.push(inl(`${before} `));
    content.push(...claim);
    if (after) content.push(inl(` ${after}`));
    return { t: 'p', content };
  }

  /** The lead paragraph: opens the article and carries any primary keyword the title lacks. */
  leadPara(title: string, parts: readonly Part[]): Block {
    const seo = seoLeadSentence(this.input.target.brandKit, title, this.rng('seo-lead'));
    const content = parts.map(inl);
    if (seo) content.push(inl(` ${seo}`));
    return { t: 'p', content, lead: true };
  }

  /** A sentence naming the brand kit's secondary keywords ('' if none). */
  secondarySentence(): string {
    return seoSecondarySentence(this.input.target.brandKit, this.focus, this.rng('seo-secondary'));
  }

  /** Claims not yet placed, as a list with their citations (null if none are left). */
  remainingClaims(): Block | null {
    const items: Inline[][] = [];
    for (let claim = this.claims.take(); claim; claim = this.claims.take()) items.push(claim);
    return items.length > 0 ? { t: 'list', ordered: false, items } : null;
  }

  /** The main call to action: the first library CTA if any, else one in the brand's tone. */
  callToAction(): { label: string; url: string } {
    const cta = this.library.ctas[0];
    const fallbackUrl = `${this.siteUrl}/${slugify(this.focus, 50)}`;
    if (cta) return { label: cta.content, url: (cta.url && safeUrl(cta.url)) || fallbackUrl };
    return { label: this.rng('cta').pick(this.tone.ctaLabels), url: fallbackUrl };
  }

  /** City and date line for news and press releases. */
  dateline(): string {
    const options = this.input.pressRelease?.dateline;
    const city = oneLine(options?.city ?? '') || oneLine(this.input.target.brandKit.pressRelease.datelineCity) || DEFAULT_CITY;
    return dateline(city, options?.date, this.input.completedAt);
  }
}
