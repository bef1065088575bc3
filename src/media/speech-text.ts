/**
 * Reads text the way a speaker would for the listen version: words, their rough
 * syllables (vowel groups and the consonants before them), which words carry stress,
 * and where punctuation and line breaks call for a pause or a rising or falling tune.
 */

/** Seconds of silence after a word, by the break that follows it. */
export const PAUSE_SECONDS = { clause: 0.2, sentence: 0.45, paragraph: 0.7 } as const;

/** a, e, i, o, u: indexes into the vowel timbres. */
export type Vowel = 0 | 1 | 2 | 3 | 4;
/** The consonant before a vowel: hiss, a short burst after a stop, a soft voiced start, or none. */
export type Onset = 'fricative' | 'plosive' | 'voiced' | 'none';
export type Tune = 'level' | 'fall' | 'rise' | 'exclaim';

export interface Syllable {
  vowel: Vowel;
  onset: Onset;
}

export interface SpokenWord {
  syllables: Syllable[];
  /** Content words are louder and a little higher than "the", "of", "and"... */
  stressed: boolean;
  pauseAfter: number;
  /** 0 at the start of the sentence, 1 at its end: pitch drifts down across a sentence. */
  sentencePosition: number;
  tune: Tune;
}

const FUNCTION_WORDS = new Set(
  'a an the of to and or but in on at by for with as is are was were be been it its this that these those from'.split(' '),
);
const VOWEL_OF: Record<string, Vowel> = { a: 0, e: 1, i: 2, y: 2, o: 3, u: 4 };
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

function onsetOf(consonants: string): Onset {
  if (consonants === '') return 'none';
  if (/[sfzvhcxj]/.test(consonants)) return 'fricative';
  if (/[ptkbdgq]/.test(consonants)) return 'plosive';
  return 'voiced';
}

export function syllablesOf(word: string): Syllable[] {
  const lower = word.toLowerCase();
  const latin = lower.replace(/[^a-z]/g, '');
  const groups = [...latin.matchAll(/[aeiouy]+/g)];
  if (groups.length === 0) {
    // Digits, acronyms without vowels, other scripts: about one syllable per three characters.
    const chars = Array.from(lower.replace(/[^\p{L}\p{N}]/gu, ''));
    const count = Math.max(1, Math.min(4, Math.ceil(chars.length / 3)));
    return Array.from({ length: count }, (_, i) => ({
      vowel: ((chars[i * 3]?.codePointAt(0) ?? 0) % 5) as Vowel,
      onset: i === 0 ? 'plosive' : 'voiced',
    }));
  }
  let syllables = groups.map((g, i) => {
    const start = i === 0 ? 0 : (groups[i - 1]?.index ?? 0) + (groups[i - 1]?.[0].length ?? 0);
    return { vowel: VOWEL_OF[g[0][0] as string] as Vowel, onset: onsetOf(latin.slice(start, g.index)) };
  });
  // A final silent "e" ("make", "time") is not a syllable of its own.
  if (syllables.length > 1 && /[^aeiouyl]e$/.test(latin)) syllables = syllables.slice(0, -1);
  return syllables.slice(0, 5);
}

type Break = 'none' | 'clause' | 'sentence' | 'paragraph';
const BREAK_RANK: Record<Break, number> = { none: 0, clause: 1, sentence: 2, paragraph: 3 };

function trailingBreak(token: string): { brk: Break; tune: Tune } {
  const tail = token.slice(wordEnd(token));
  if (tail.includes('?')) return { brk: 'sentence', tune: 'rise' };
  if (tail.includes('!')) return { brk: 'sentence', tune: 'exclaim' };
  if (/[.…]/.test(tail)) return { brk: 'sentence', tune: 'fall' };
  if (/[,;:—–]/.test(tail)) return { brk: 'clause', tune: 'level' };
  return { brk: 'none', tune: 'level' };
}

/*
 * Where a token's letters and digits begin and end, found by one scan from each end: a regex
 * anchored at the end (`[^\p{L}\p{N}]+$`) retries from every punctuation mark, which costs n²
 * on a token of thousands of commas or quotes.
 */
const WORD_CHAR = /[\p{L}\p{N}]/u;

function wordStart(token: string): number {
  let i = 0;
  while (i < token.length && !WORD_CHAR.test(token[i] as string)) i++;
  return i;
}

function wordEnd(token: string): number {
  let end = token.length;
  // Surrogate pairs are tested whole: a letter outside the BMP is one code point of two units.
  while (end > 0) {
    const low = token.charCodeAt(end - 1);
    const width = low >= 0xdc00 && low <= 0xdfff && end > 1 ? 2 : 1;
    if (WORD_CHAR.test(token.slice(end - width, end))) break;
    end -= width;
  }
  return end;
}

interface Draft {
  word: SpokenWord;
  brk: Break;
}

function strengthen(draft: Draft | undefined, brk: Break): void {
  if (!draft || BREAK_RANK[brk] <= BREAK_RANK[draft.brk]) return;
  draft.brk = brk;
  if (brk !== 'clause' && draft.word.tune === 'level') draft.word.tune = 'fall';
}

export function analyzeText(text: string): SpokenWord[] {
  const drafts: Draft[] = [];
  for (const [token] of text.matchAll(/\s+|\S+/g)) {
    const last = drafts[drafts.length - 1];
    if (/^\s/.test(token)) {
      // A blank line ends a paragraph; a single line break (a heading, a list item) a sentence.
      const newlines = token.split('\n').length - 1;
      if (newlines > 0) strengthen(last, newlines > 1 ? 'paragraph' : 'sentence');
      continue;
    }
    const { brk, tune } = trailingBreak(token);
    if (!HAS_WORD_CHAR.test(token)) {
      strengthen(last, brk === 'none' && /[—–-]/.test(token) ? 'clause' : brk);
      continue;
    }
    const bare = token.slice(wordStart(token), wordEnd(token));
    const word: SpokenWord = {
      syllables: syllablesOf(bare),
      stressed: !FUNCTION_WORDS.has(bare.toLowerCase()),
      pauseAfter: 0,
      sentencePosition: 0,
      tune,
    };
    drafts.push({ word, brk });
  }
  let sentenceStart = 0;
  drafts.forEach((draft, i) => {
    const ends = draft.brk === 'sentence' || draft.brk === 'paragraph' || i === drafts.length - 1;
    if (draft.brk !== 'none') draft.word.pauseAfter = PAUSE_SECONDS[draft.brk];
    if (!ends) return;
    const length = i - sentenceStart;
    for (let j = sentenceStart; j <= i; j++) (drafts[j] as Draft).word.sentencePosition = length === 0 ? 1 : (j - sentenceStart) / length;
    sentenceStart = i + 1;
  });
  return drafts.map((d) => d.word);
}
