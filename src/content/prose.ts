/**
 * Fills sentence templates and strings them into paragraphs in the brand's tone.
 *
 * Placeholders: {topic} {focus} {audience} {brand} {year} as given; a capitalised name
 * ({Focus}) capitalises the first letter; a "T" suffix ({FocusT}) title-cases. Numbers are
 * fresh on every use: {pct} {weeks} {num} {mult} {months} {yearPast}.
 */
import type { Rng } from '../random/rng.js';
import { capitalize, titleCase } from './text.js';
import type { ToneProfile } from './tones.js';

export interface ProseVars {
  topic: string;
  focus: string;
  audience: string;
  brand: string;
  year: string;
  /** A shorter form of the focus for repeat mentions (optional). */
  focusShort?: string;
  [extra: string]: string | undefined;
}

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

export class Prose {
  private readonly used = new Set<string>();
  private focusUses = 0;

  constructor(
    readonly vars: ProseVars,
    readonly tone: ToneProfile,
    readonly rng: Rng,
  ) {}

  fill(template: string, extra?: Record<string, string>): string {
    if (template.indexOf('{') < 0) return template;
    return template.replace(PLACEHOLDER, (whole, key: string) => this.value(key, extra) ?? whole);
  }

  private value(key: string, extra?: Record<string, string>): string | undefined {
    if (key === 'focus' || key === 'Focus') {
      const focus = this.focusMention();
      return key === 'Focus' ? capitalize(focus) : focus;
    }
    const direct = extra?.[key] ?? this.vars[key];
    if (direct !== undefined) return direct;
    switch (key) {
      case 'pct': return String(this.rng.int(12, 78));
      case 'weeks': return String(this.rng.int(2, 6));
      case 'num': return String(this.rng.int(5, 9));
      case 'mult': return (this.rng.int(14, 32) / 10).toFixed(1);
      case 'months': return String(this.rng.int(6, 18));
      case 'yearPast': return String(Number(this.vars.year) - this.rng.int(2, 5));
    }
    const base = key.charAt(0).toLowerCase() + key.slice(1);
    if (key.endsWith('T')) {
      const raw = extra?.[base.slice(0, -1)] ?? this.vars[base.slice(0, -1)];
      if (raw !== undefined) return titleCase(raw);
    }
    const lower = extra?.[base] ?? this.vars[base];
    return lower === undefined ? undefined : capitalize(lower);
  }

  /** The full focus on first mention, mostly the short form after that, so text does not repeat itself. */
  private focusMention(): string {
    const { focus, focusShort } = this.vars;
    if (!focusShort || focusShort === focus) return focus;
    return this.focusUses++ === 0 || this.rng.bool(0.25) ? focus : focusShort;
  }

  /** A filled template from the pool, avoiding templates already used in this article. */
  pick(pool: readonly string[], extra?: Record<string, string>): string {
    return this.fill(this.pickTemplate(pool), extra);
  }

  /** An unused template; once a pool is used up it starts over (long articles). */
  pickTemplate(pool: readonly string[]): string {
    return this.pickFresh(pool) ?? this.restart(pool);
  }

  /** An unused template, or null when the pool is used up. */
  private pickFresh(pool: readonly string[]): string | null {
    const start = Math.floor(this.rng.next() * pool.length);
    for (let i = 0; i < pool.length; i++) {
      const choice = pool[(start + i) % pool.length] as string;
      if (!this.used.has(choice)) {
        this.used.add(choice);
        return choice;
      }
    }
    return null;
  }

  private restart(pool: readonly string[]): string {
    for (const template of pool) this.used.delete(template);
    return this.pickFresh(pool) as string;
  }

  /** Several filled templates from one pool, distinct from each other. */
  many(pool: readonly string[], count: number, extra?: Record<string, string>): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < count * 3 && out.length < count; i++) {
      const template = this.pickTemplate(pool);
      if (seen.has(template)) continue;
      seen.add(template);
      out.push(this.fill(template, extra));
    }
    return out;
  }

  /**
   * One sentence from each pool, with the tone's touches: perhaps a transition on a later
   * sentence, an aside at the end, an exclamation on a short sentence.
   */
  paragraph(pools: ReadonlyArray<readonly string[]>): string[] {
    const out: string[] = [];
    let transitioned = false;
    pools.forEach((pool, i) => {
      const template = this.pickTemplate(pool);
      const wants = i > 0 && !transitioned && this.rng.bool(this.tone.transitionRate) && !template.includes(':');
      const transition = wants ? this.pickFresh(this.tone.transitions) : null;
      if (transition) {
        transitioned = true;
        out.push(`${transition} ${this.fill(lowerStart(template))}`);
      } else {
        out.push(this.fill(template));
      }
    });
    if (this.tone.exclaimRate > 0 && this.rng.bool(this.tone.exclaimRate)) {
      const i = this.rng.int(0, out.length - 1);
      const s = out[i] as string;
      if (s.length < 90 && s.endsWith('.')) out[i] = `${s.slice(0, -1)}!`;
    }
    // Tone extras are used at most once per article: repeated asides read as tics.
    const aside = this.rng.bool(this.tone.asideRate) ? this.pickFresh(this.tone.asides) : null;
    if (aside) out.push(this.fill(aside));
    return out;
  }
}

/** Lower-cases the start of a template so it can follow a transition ("In practice, the ..."). */
function lowerStart(template: string): string {
  if (template.charAt(0) === '{') return `{${template.charAt(1).toLowerCase()}${template.slice(2)}`;
  if (template.startsWith('I ')) return template;
  return template.charAt(0).toLowerCase() + template.slice(1);
}
