/**
 * Verifiable claims: factual-sounding sentences that the article states and the claim ledger
 * checks against the sources. Claim text is built only from the focus and audience (letters,
 * digits, hyphens), so the sentence appears byte-for-byte in the Markdown.
 */
import type { Rng } from '../random/rng.js';
import type { Claim, ClaimVerdict, ContentKind, Source } from './types.js';
import type { Inline } from './doc-model.js';

const TEMPLATES = [
  'Some {pct}% of {audience} now rank {focus} among their top three priorities.',
  'Organizations that invest consistently in {focus} report up to {mult} times higher engagement.',
  'Teams with a documented plan for {focus} are {pct}% more likely to reach their goals.',
  'Only {pctLow}% of {audience} feel confident they are getting full value from {focus}.',
  'Reviewing results for {focus} monthly rather than yearly cuts wasted effort by about {pct}%.',
  'Early adopters of {focus} saw measurable results within {weeks} weeks on average.',
  'Nearly {pctLow}% of projects involving {focus} stall because no one clearly owns them.',
  'Pilots of {focus} run on a small scale first lead to {pct}% fewer costly reversals.',
  'Spending on {focus} has grown by roughly {pct}% since {yearPast}.',
  'Plain-language communication about {focus} raises trust scores by around {pct}%.',
  'About {ratio} {audience} plan to increase their investment in {focus} next year.',
  'Among {audience}, {pct}% of decision-makers expect to spend more time on {focus} this year.',
] as const;

const RATIOS = ['one in three', 'two in five', 'one in four', 'three in five', 'half of all'];

export interface ClaimDraft extends Claim {
  /** 1-based positions in the Sources list, for the citation links. */
  citations: number[];
}

function claimCount(kind: ContentKind, premium: boolean, rng: Rng): number {
  const short = kind === 'social' || kind === 'image' || kind === 'email' || kind === 'web_page';
  if (short) return rng.int(3, premium ? 5 : 4);
  return premium ? rng.int(6, 8) : rng.int(4, 6);
}

function verdictFor(rng: Rng, hasSources: boolean): ClaimVerdict {
  if (!hasSources) return 'unsupported';
  const r = rng.next();
  return r < 0.75 ? 'supported' : r < 0.9 ? 'weak' : 'unsupported';
}

function confidenceFor(verdict: ClaimVerdict, rng: Rng): number {
  const hundredths = verdict === 'supported' ? rng.int(70, 98) : verdict === 'weak' ? rng.int(40, 69) : rng.int(5, 39);
  return hundredths / 100;
}

export function makeClaims(
  kind: ContentKind,
  premium: boolean,
  vars: { focus: string; audience: string; year: number },
  sources: readonly Source[],
  rng: Rng,
): ClaimDraft[] {
  const templates = rng.sample(TEMPLATES, claimCount(kind, premium, rng));
  return templates.map((template) => {
    const text = template.replace(/\{(\w+)\}/g, (_, key: string) => {
      switch (key) {
        case 'focus': return vars.focus;
        case 'audience': return vars.audience;
        case 'pct': return String(rng.int(12, 78));
        case 'pctLow': return String(rng.int(9, 38));
        case 'mult': return (rng.int(14, 32) / 10).toFixed(1);
        case 'weeks': return String(rng.int(3, 12));
        case 'yearPast': return String(vars.year - rng.int(2, 5));
        case 'ratio': return rng.pick(RATIOS);
        default: return key;
      }
    });
    const verdict = verdictFor(rng, sources.length > 0);
    const cited = verdict === 'supported' ? rng.int(1, Math.min(3, sources.length)) : verdict === 'weak' ? 1 : 0;
    const picks = rng.sample(sources.map((_, i) => i), cited).sort((a, b) => a - b);
    return {
      id: rng.uuid(),
      text,
      verdict,
      sourceIds: picks.map((i) => sources[i]!.id),
      confidence: confidenceFor(verdict, rng),
      citations: picks.map((i) => i + 1),
    };
  });
}

/** Hands out claims one at a time, as paragraphs are written, and remembers which were placed. */
export class ClaimQueue {
  private next = 0;

  constructor(
    private readonly drafts: readonly ClaimDraft[],
    private readonly sources: readonly Source[],
  ) {}

  get remaining(): number {
    return this.drafts.length - this.next;
  }

  /** The next claim sentence followed by its citation links, or null when all are placed. */
  take(): Inline[] | null {
    const claim = this.drafts[this.next];
    if (!claim) return null;
    this.next++;
    const out: Inline[] = [{ t: 'text', text: claim.text }];
    for (const n of claim.citations) {
      out.push({ t: 'text', text: ' ' }, { t: 'link', text: `[${n}]`, href: this.sources[n - 1]!.url });
    }
    return out;
  }

  /** The claims placed so far, without the internal citation numbers. */
  placed(): Claim[] {
    return this.drafts.slice(0, this.next).map(({ citations: _c, ...claim }) => claim);
  }
}
