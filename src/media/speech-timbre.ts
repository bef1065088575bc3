/**
 * Precomputed one-period waveforms, so synthesis is a table lookup per sample instead of
 * a sum of sines: for each vowel a buzz whose harmonics are shaped by that vowel's
 * formants (the resonances that make "ah" differ from "ee"), plus a shared noise table
 * for consonants and breath.
 */
import { Rng } from '../random/rng.js';
import type { Voice } from './voices.js';

export const TABLE_SIZE = 1024;
export const NOISE_SIZE = 4096; // a power of two, indexed with a mask

/** F1, F2, F3 in Hz of a typical adult male a, e, i, o, u. */
const FORMANTS: ReadonlyArray<readonly [number, number, number]> = [
  [730, 1090, 2440],
  [530, 1840, 2480],
  [300, 2250, 3000],
  [570, 840, 2410],
  [320, 870, 2240],
];
const FORMANT_GAIN = [1, 0.7, 0.35] as const;
const FORMANT_WIDTH = [110, 140, 200] as const;

/** Shorter vocal tracts resonate higher. */
const FORMANT_SCALE: Record<Voice['gender'], number> = { male: 1, neutral: 1.08, female: 1.16 };

const tableCache = new Map<string, Float32Array[]>();
let noise: Float32Array | undefined;

function vowelTable(pitchHz: number, formants: readonly number[], maxHz: number): Float32Array {
  const table = new Float32Array(TABLE_SIZE);
  for (let k = 1; k * pitchHz < maxHz; k++) {
    const f = k * pitchHz;
    let gain = 0.12;
    formants.forEach((F, j) => {
      const x = (f - F) / (FORMANT_WIDTH[j] as number);
      gain += (FORMANT_GAIN[j] as number) / (1 + x * x);
    });
    gain /= Math.sqrt(k); // the glottal source loses energy with frequency
    for (let i = 0; i < TABLE_SIZE; i++) table[i] = (table[i] as number) + gain * Math.sin((2 * Math.PI * k * i) / TABLE_SIZE);
  }
  let peak = 0;
  for (const v of table) peak = Math.max(peak, Math.abs(v));
  for (let i = 0; i < TABLE_SIZE; i++) table[i] = (table[i] as number) / (peak || 1);
  return table;
}

/**
 * The five vowel tables of a voice. Pitch glides up to about +30%, so harmonics stop well
 * below the Nyquist frequency to keep them from folding back as whistles.
 */
export function vowelTables(voice: Voice, sampleRate: number): Float32Array[] {
  const key = `${voice.id}:${voice.pitchHz}:${sampleRate}`;
  let tables = tableCache.get(key);
  if (!tables) {
    const scale = FORMANT_SCALE[voice.gender];
    const maxHz = (sampleRate / 2) * 0.9 / 1.3;
    tables = FORMANTS.map((f) => vowelTable(voice.pitchHz, f.map((F) => F * scale), maxHz));
    tableCache.set(key, tables);
  }
  return tables;
}

/** White noise in [-1, 1), the same for every render so output stays deterministic. */
export function noiseTable(): Float32Array {
  if (!noise) {
    const rng = new Rng('speech-noise');
    noise = new Float32Array(NOISE_SIZE);
    for (let i = 0; i < NOISE_SIZE; i++) noise[i] = rng.float(-1, 1);
  }
  return noise;
}
