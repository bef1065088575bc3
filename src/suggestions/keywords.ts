/**
 * SEO keyword extraction. Candidates are runs of one to three content words that no stop
 * word or punctuation interrupts; case and plurals fold together ("Grinders" = "grinder").
 * A phrase of two or three words must occur at least twice to count. A candidate that
 * only ever occurs inside a longer kept one is dropped ("brew" inside "cold brew").
 * Score: occurrences x (1 + 0.5 per extra word), scaled so the best is 1.
 */
import { WORD_PATTERN, isStopWord, normalizeWord, singular } from './stop-words.js';

export interface ExtractedKeyword {
  keyword: string;
  score: number;
  occurrences: number;
}

export interface KeywordExtraction {
  data: ExtractedKeyword[];
  wordCount: number;
}

interface Candidate {
  key: string;
  words: number;
  count: number;
  /** Surface forms (lower case) and how often each occurs: the most frequent is shown. */
  forms: Map<string, number>;
}

const MAX_WORDS = 3;
/** Characters that end a run of words even without a stop word. */
const BREAK = /[.,;:!?()[\]{}"\u201c\u201d|/\\<>\u2014\u2013\n\r\t*#=+&@]/;

/** Runs of content words between stop words and punctuation. */
function runs(text: string): { runs: string[][]; wordCount: number } {
  const out: string[][] = [];
  let current: string[] = [];
  let wordCount = 0;
  let last = 0;
  const flush = () => {
    if (current.length > 0) out.push(current);
    current = [];
  };
  for (const match of text.matchAll(WORD_PATTERN)) {
    const index = match.index as number;
    if (BREAK.test(text.slice(last, index))) flush();
    last = index + match[0].length;
    wordCount++;
    const word = normalizeWord(match[0]);
    if (isStopWord(word) || /^\d+$/.test(word) || word.length < 2) flush();
    else current.push(word);
  }
  flush();
  return { runs: out, wordCount };
}

function countCandidates(allRuns: readonly string[][]): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  for (const run of allRuns) {
    const keys = run.map(singular);
    for (let start = 0; start < run.length; start++) {
      for (let n = 1; n <= MAX_WORDS && start + n <= run.length; n++) {
        if (n === 1 && (run[start] as string).length < 3) continue;
        const key = keys.slice(start, start + n).join(' ');
        const form = run.slice(start, start + n).join(' ');
        let candidate = candidates.get(key);
        if (!candidate) candidates.set(key, (candidate = { key, words: n, count: 0, forms: new Map() }));
        candidate.count++;
        candidate.forms.set(form, (candidate.forms.get(form) ?? 0) + 1);
      }
    }
  }
  return candidates;
}

/** For each candidate, the highest count of a kept longer candidate that contains it. */
function containerCounts(kept: readonly Candidate[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const long of kept) {
    if (long.words === 1) continue;
    const parts = long.key.split(' ');
    for (let n = 1; n < parts.length; n++) {
      for (let start = 0; start + n <= parts.length; start++) {
        const key = parts.slice(start, start + n).join(' ');
        out.set(key, Math.max(out.get(key) ?? 0, long.count));
      }
    }
  }
  return out;
}

function mostFrequentForm(forms: Map<string, number>): string {
  let best = '';
  let bestCount = 0;
  for (const [form, count] of forms) {
    if (count > bestCount || (count === bestCount && form < best)) {
      best = form;
      bestCount = count;
    }
  }
  return best;
}

export function extractKeywords(text: string, max: number): KeywordExtraction {
  const { runs: allRuns, wordCount } = runs(text);
  const kept = [...countCandidates(allRuns).values()].filter((c) => c.words === 1 || c.count >= 2);
  const containers = containerCounts(kept);
  const scored = kept
    .filter((c) => c.count > (containers.get(c.key) ?? 0))
    .map((c) => ({ keyword: mostFrequentForm(c.forms), raw: c.count * (1 + 0.5 * (c.words - 1)), occurrences: c.count, words: c.words }));
  const best = scored.reduce((m, c) => Math.max(m, c.raw), 0);
  const data = scored
    .map((c) => ({ keyword: c.keyword, score: Math.round((c.raw / best) * 1000) / 1000, occurrences: c.occurrences, raw: c.raw, words: c.words }))
    // Ties go to the longer phrase ("cold brew" before "cold"), then the more frequent, then A to Z.
    .sort((a, b) => b.raw - a.raw || b.words - a.words || b.occurrences - a.occurrences || (a.keyword < b.keyword ? -1 : a.keyword > b.keyword ? 1 : 0))
    .slice(0, max)
    .map(({ keyword, score, occurrences }) => ({ keyword, score, occurrences }));
  return { data, wordCount };
}
