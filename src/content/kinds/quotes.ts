/**
 * Press-release quotes in three modes: verbatim (kept exactly), polish (deterministic
 * copy-editing that keeps the meaning) and generate (a new quote about the objective).
 */
import type { GenContext } from '../context.js';
import { oneLine } from '../text.js';
import type { QuoteMode } from '../types.js';
import { EXEC_TITLES, FIRST_NAMES, LAST_NAMES } from '../vocabulary.js';

export interface ResolvedQuote {
  speaker: string;
  title: string;
  text: string;
  mode: QuoteMode;
}

/** Filler that weakens a quote: a few phrases get a stronger word, the rest are dropped. */
const STRONGER: ReadonlyArray<[RegExp, string]> = [
  [/\b(?:very|really|so) (?:happy|glad|pleased)\b/gi, 'delighted'],
  [/\b(?:very|really|so) excited\b/gi, 'thrilled'],
  [/\b(?:very|really) important\b/gi, 'essential'],
  [/\b(?:very|really) (?:big|large)\b/gi, 'significant'],
  [/\b(?:very|really) good\b/gi, 'excellent'],
];
const FILLER = /\b(?:very|really|just|basically|actually|literally|totally)\b ?/gi;

function matchCase(replacement: string, original: string): string {
  return original.charAt(0) === original.charAt(0).toUpperCase() ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}

/** Copy-edits a quote: filler, spacing, capitals, repeated words and final punctuation. */
export function polishQuote(raw: string): string {
  let text = oneLine(raw).replace(/^["\u201c\u201d]+|["\u201c\u201d]+$/g, '').trim();
  for (const [pattern, word] of STRONGER) text = text.replace(pattern, (m) => matchCase(word, m));
  text = text.replace(FILLER, '');
  text = text
    .replace(/\b(\w+) \1\b/gi, '$1') // "the the"
    .replace(/ +([,.;:!?])/g, '$1') // "great ,"
    .replace(/([,;:])(?=[A-Za-z])/g, '$1 ') // "great,and"
    .replace(/([.!?])(?=[A-Z])/g, '$1 ') // "done.We"
    .replace(/([!?])\1+/g, '$1') // "!!!"
    .replace(/,([.!?])/g, '$1')
    .replace(/(^|\s)i(?=\s|'|\u2019|,|$)/g, '$1I')
    .replace(/ {2,}/g, ' ')
    .trim();
  text = text.replace(/(^|[.!?] )([a-z])/g, (_, lead: string, ch: string) => lead + ch.toUpperCase());
  if (text.length > 0 && !/[.!?\u2026]$/.test(text)) text += '.';
  return text;
}

const GENERATED = [
  'At {brand}, we believe {focus} should be simple, practical and within reach for {audience}. This is an important step toward that goal.',
  'This is about more than {focus}. It is about giving {audience} the confidence to move faster and the tools to prove it is working.',
  'We built this because {audience} told us {focus} was too hard to get right. Today we are changing that.',
  'We are proud of what the team has achieved, and even more excited about what comes next for {focus}.',
  'Our customers asked for a better way to handle {focus}. We listened, and this is the result.',
];

function generateQuote(ctx: GenContext): string {
  return ctx.prose.pick(GENERATED, { topic: ctx.objective.topicThirdPerson });
}

/** The quotes of a release: the input's, each in its mode, or one from a spokesperson. */
export function resolveQuotes(ctx: GenContext): ResolvedQuote[] {
  const defaultMode = ctx.input.target.brandKit.pressRelease.defaultQuoteMode;
  const given = ctx.input.pressRelease?.quotes ?? [];
  if (given.length === 0) {
    const rng = ctx.rng('spokesperson');
    return [{ speaker: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`, title: rng.pick(EXEC_TITLES), text: generateQuote(ctx), mode: 'generate' }];
  }
  return given.map((quote) => {
    const requested = quote.mode ?? defaultMode;
    // Verbatim and polish need text; without it the only honest option is to write one.
    const mode: QuoteMode = requested !== 'generate' && !quote.text?.trim() ? 'generate' : requested;
    const text = mode === 'verbatim' ? (quote.text as string) : mode === 'polish' ? polishQuote(quote.text as string) : generateQuote(ctx);
    return { speaker: oneLine(quote.speaker), title: oneLine(quote.title ?? '') || 'Spokesperson', text, mode };
  });
}
