/**
 * Writes one word of "speech" into an 8-bit PCM buffer: per syllable an optional
 * consonant (a noise hiss, or a stop's silence and burst) and then a voiced vowel, a
 * formant-shaped buzz from a wavetable gliding along a pitch contour under an attack and
 * release envelope. Not intelligible, but it has the rhythm and tune of speech.
 */
import type { Rng } from '../random/rng.js';
import type { SpokenWord, Syllable } from './speech-text.js';
import { NOISE_SIZE, TABLE_SIZE } from './speech-timbre.js';

export interface SynthContext {
  /** Unsigned 8-bit samples, silence = 128, already filled with silence. */
  out: Uint8Array;
  tables: Float32Array[];
  noise: Float32Array;
  sampleRate: number;
  pitchHz: number;
  rng: Rng;
}

/** Peak sample offset from 128 for a stressed vowel: loud, with headroom for breath noise. */
const FULL_SCALE = 100;
/** Share of a word's time that is voiced; the rest is the gap before the next word. */
const VOICED_SHARE = 0.8;
const NOISE_MASK = NOISE_SIZE - 1;

function writeNoise(ctx: SynthContext, start: number, length: number, amplitude: number): void {
  const { out, noise } = ctx;
  const half = length / 2;
  for (let i = 0; i < length; i++) {
    const env = i < half ? i / half : (length - i) / half; // a swell and fade, like a hiss
    out[start + i] = (128 + (noise[(start + i) & NOISE_MASK] as number) * env * amplitude) | 0;
  }
}

function writeVowel(
  ctx: SynthContext, table: Float32Array, start: number, length: number,
  fromHz: number, toHz: number, amplitude: number, attack: number,
): void {
  const { out, noise, sampleRate } = ctx;
  const release = Math.min(length / 3, sampleRate * 0.04);
  const rise = Math.min(attack, length / 4);
  const step = TABLE_SIZE / sampleRate;
  let increment = fromHz * step;
  const glide = ((toHz - fromHz) * step) / length;
  let phase = 0;
  const decay = 0.3 / length; // vowels fade a little after their onset rather than hold flat
  for (let i = 0; i < length; i++) {
    const env = (i < rise ? i / rise : i > length - release ? (length - i) / release : 1) * (1 - decay * i);
    // A little breath noise keeps the buzz from sounding like a pure electronic tone.
    const v = (table[phase | 0] as number) + 0.06 * (noise[(start + i) & NOISE_MASK] as number);
    out[start + i] = (128 + v * env * amplitude) | 0;
    phase += increment;
    if (phase >= TABLE_SIZE) phase -= TABLE_SIZE;
    increment += glide;
  }
}

/** Length in samples of the consonant before the vowel. */
function onsetLength(syllable: Syllable, length: number, sampleRate: number): number {
  if (syllable.onset === 'fricative') return Math.floor(Math.min(length * 0.3, sampleRate * 0.07));
  if (syllable.onset === 'plosive') return Math.floor(Math.min(length * 0.2, sampleRate * 0.025));
  return 0;
}

/** Renders `word` into out[start, start + length); the trailing gap stays silent. */
export function synthWord(ctx: SynthContext, word: SpokenWord, start: number, length: number): void {
  const { rng, sampleRate } = ctx;
  const count = word.syllables.length;
  const slot = Math.floor((length * VOICED_SHARE) / count);
  const level = (word.stressed ? 1 : 0.72) * FULL_SCALE;
  // Declination: a sentence starts higher and drifts down towards its end.
  const base = ctx.pitchHz * (1.06 - 0.14 * word.sentencePosition);
  word.syllables.forEach((syllable, s) => {
    // Syllables inside a word are separated by a short dip, not a full gap.
    let n = s < count - 1 ? Math.floor(slot * 0.92) : slot;
    let pos = start + s * slot;
    const consonant = onsetLength(syllable, n, sampleRate);
    if (syllable.onset === 'fricative') writeNoise(ctx, pos, consonant, level * 0.3);
    if (syllable.onset === 'plosive') {
      const closure = Math.floor(consonant * 0.6); // the stop is a silence, then its release burst
      writeNoise(ctx, pos + closure, consonant - closure, level * 0.55);
    }
    pos += consonant;
    n -= consonant;
    let from = base * (1 + rng.float(-0.03, 0.03)) * (s === 0 && word.stressed ? 1.06 : 1);
    let to = from * (1 + rng.float(-0.06, 0.02));
    if (s === count - 1) {
      if (word.tune === 'fall') to = from * 0.82;
      if (word.tune === 'rise') to = from * 1.28;
      if (word.tune === 'exclaim') [from, to] = [from * 1.12, from * 0.92];
    }
    const attack = sampleRate * (syllable.onset === 'voiced' ? 0.035 : 0.015);
    writeVowel(ctx, ctx.tables[syllable.vowel] as Float32Array, pos, n, from, to, level, attack);
  });
}
