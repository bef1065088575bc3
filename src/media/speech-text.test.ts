import { describe, expect, it } from 'vitest';
import { PAUSE_SECONDS, analyzeText, syllablesOf } from './speech-text.js';

describe('syllablesOf', () => {
  it('counts vowel groups, drops a silent final e, and handles words without vowels', () => {
    expect(syllablesOf('cat')).toHaveLength(1);
    expect(syllablesOf('make')).toHaveLength(1);
    expect(syllablesOf('table')).toHaveLength(2);
    expect(syllablesOf('generation')).toHaveLength(4);
    expect(syllablesOf('2025')).toHaveLength(2);
    expect(syllablesOf('日本語')).toHaveLength(1);
    expect(syllablesOf('supercalifragilistic').length).toBeLessThanOrEqual(5);
    expect(syllablesOf('sun')[0]).toEqual({ vowel: 4, onset: 'fricative' });
    expect(syllablesOf('top')[0]).toEqual({ vowel: 3, onset: 'plosive' });
  });
});

describe('analyzeText', () => {
  it('finds words, pauses, tunes and sentence positions', () => {
    const words = analyzeText('# Title\n\nIs it ready? Yes, it is — mostly. Done!');
    expect(words).toHaveLength(9); // "#" and "—" are not words
    const { clause, sentence, paragraph } = PAUSE_SECONDS;
    expect(words.map((w) => w.pauseAfter)).toEqual([paragraph, 0, 0, sentence, clause, 0, clause, sentence, sentence]);
    expect(words.map((w) => w.tune)).toEqual(['fall', 'level', 'level', 'rise', 'level', 'level', 'level', 'fall', 'exclaim']);
    expect(words.map((w) => w.sentencePosition)).toEqual([1, 0, 0.5, 1, 0, 1 / 3, 2 / 3, 1, 1]);
    expect(words.map((w) => w.stressed)).toEqual([true, false, false, true, true, false, false, true, true]);
  });
});
