/**
 * The listen version: text to a playable WAV (PCM, mono, 8-bit, 8000 Hz, about 8 KB a
 * second, so 1000 words stay under 4 MB at the slowest voice). Each word takes
 * 60 / wordsPerMinute seconds on average (longer words more, shorter less), and
 * punctuation and line breaks add pauses, so the duration follows the text and the voice.
 */
import { Rng, hash32 } from '../random/rng.js';
import { type SpokenWord, analyzeText } from './speech-text.js';
import { synthWord } from './speech-synth.js';
import { noiseTable, vowelTables } from './speech-timbre.js';
import { type Voice, type VoiceId, getVoice } from './voices.js';
import { WAV_HEADER_BYTES, writeWavHeader } from './wav.js';

export { parseWavHeader, type WavInfo } from './wav.js';
export { PAUSE_SECONDS } from './speech-text.js';

export const SPEECH_SAMPLE_RATE = 8000;
export const SPEECH_BITS_PER_SAMPLE = 8;
/** Silence before the first and after the last word. */
export const SPEECH_LEAD_IN_SECONDS = 0.15;
export const SPEECH_TAIL_SECONDS = 0.25;
/** What a text with no words renders to. */
export const SPEECH_EMPTY_SECONDS = 0.5;
/** About 58 MB of audio; a longer text is refused rather than allocating without bound. */
export const SPEECH_MAX_SECONDS = 2 * 60 * 60;

export interface SpeechInput {
  seed: string;
  text: string;
  voiceId: VoiceId;
}

export interface SpeechWav {
  wav: Uint8Array;
  durationSeconds: number;
  sampleRate: number;
  wordCount: number;
}

interface SpeechPlan {
  words: SpokenWord[];
  wordSamples: number[];
  pauseSamples: number[];
  totalSamples: number;
}

const weight = (word: SpokenWord): number => 0.55 + 0.3 * word.syllables.length;

function planSpeech(text: string, voice: Voice): SpeechPlan {
  const sr = SPEECH_SAMPLE_RATE;
  const words = analyzeText(text);
  if (words.length === 0) {
    return { words, wordSamples: [], pauseSamples: [], totalSamples: Math.round(SPEECH_EMPTY_SECONDS * sr) };
  }
  // Normalised so the words together take exactly wordCount / wordsPerMinute minutes.
  const meanWeight = words.reduce((sum, w) => sum + weight(w), 0) / words.length;
  const secondsPerWord = 60 / voice.wordsPerMinute;
  const wordSamples = words.map((w) => Math.round(((secondsPerWord * weight(w)) / meanWeight) * sr));
  const pauseSamples = words.map((w, i) => (i === words.length - 1 ? 0 : Math.round(w.pauseAfter * sr)));
  let total = Math.round((SPEECH_LEAD_IN_SECONDS + SPEECH_TAIL_SECONDS) * sr);
  for (let i = 0; i < words.length; i++) total += (wordSamples[i] as number) + (pauseSamples[i] as number);
  return { words, wordSamples, pauseSamples, totalSamples: total + (total % 2) }; // even: no RIFF pad byte
}

/** The duration renderSpeechWav would give, without rendering (cheap: text analysis only). */
export function speechDurationSeconds(text: string, voiceId: VoiceId): number {
  return planSpeech(text, getVoice(voiceId)).totalSamples / SPEECH_SAMPLE_RATE;
}

export interface SpeechStats {
  durationSeconds: number;
  sampleRate: number;
  wordCount: number;
  /** Size of the WAV file renderSpeechWav would give. */
  bytes: number;
}

/** What renderSpeechWav would give, without rendering: for records that keep no audio. */
export function speechStats(text: string, voiceId: VoiceId): SpeechStats {
  const plan = planSpeech(text, getVoice(voiceId));
  return {
    durationSeconds: plan.totalSamples / SPEECH_SAMPLE_RATE,
    sampleRate: SPEECH_SAMPLE_RATE,
    wordCount: plan.words.length,
    bytes: WAV_HEADER_BYTES + plan.totalSamples,
  };
}

export function renderSpeechWav(input: SpeechInput): SpeechWav {
  const voice = getVoice(input.voiceId);
  const plan = planSpeech(input.text, voice);
  if (plan.totalSamples > SPEECH_MAX_SECONDS * SPEECH_SAMPLE_RATE) {
    throw new Error(`Text too long for one listen version: over ${SPEECH_MAX_SECONDS} seconds of speech`);
  }
  const wav = new Uint8Array(WAV_HEADER_BYTES + plan.totalSamples);
  writeWavHeader(wav, { sampleRate: SPEECH_SAMPLE_RATE, channels: 1, bitsPerSample: SPEECH_BITS_PER_SAMPLE }, plan.totalSamples);
  const out = wav.subarray(WAV_HEADER_BYTES);
  out.fill(128); // 8-bit PCM is unsigned: 128 is silence
  const ctx = {
    out,
    tables: vowelTables(voice, SPEECH_SAMPLE_RATE),
    noise: noiseTable(),
    sampleRate: SPEECH_SAMPLE_RATE,
    pitchHz: voice.pitchHz,
    rng: new Rng(input.seed, 'speech', voice.id, hash32(input.text), input.text.length),
  };
  let pos = Math.round(SPEECH_LEAD_IN_SECONDS * SPEECH_SAMPLE_RATE);
  plan.words.forEach((word, i) => {
    const length = plan.wordSamples[i] as number;
    synthWord(ctx, word, pos, length);
    pos += length + (plan.pauseSamples[i] as number);
  });
  return {
    wav,
    durationSeconds: plan.totalSamples / SPEECH_SAMPLE_RATE,
    sampleRate: SPEECH_SAMPLE_RATE,
    wordCount: plan.words.length,
  };
}
