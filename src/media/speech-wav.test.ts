import { describe, expect, it } from 'vitest';
import {
  PAUSE_SECONDS, SPEECH_LEAD_IN_SECONDS, SPEECH_TAIL_SECONDS, parseWavHeader, renderSpeechWav, speechDurationSeconds, speechStats,
} from './speech-wav.js';
import { VOICES, VOICE_IDS, type VoiceId, getVoice } from './voices.js';

const VOCAB = 'content brand article research quality image readers search helpful simple market story product launch'.split(' ');
/** `n` words with no punctuation, so only the pace sets the duration. */
const words = (n: number, offset = 0): string => Array.from({ length: n }, (_, i) => VOCAB[(i + offset) % VOCAB.length]).join(' ');
const speak = (text: string, voiceId: VoiceId = 'aria', seed = 's'): ReturnType<typeof renderSpeechWav> =>
  renderSpeechWav({ seed, text, voiceId });
const ascii = (bytes: Uint8Array, from: number): string => String.fromCharCode(...bytes.subarray(from, from + 4));

describe('renderSpeechWav', () => {
  it('writes a canonical PCM RIFF/WAVE file with consistent sizes', () => {
    const { wav, sampleRate, durationSeconds, wordCount } = speak('Hello there. This is the listen version!');
    const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
    expect(ascii(wav, 0)).toBe('RIFF');
    expect(view.getUint32(4, true)).toBe(wav.length - 8);
    expect(ascii(wav, 8)).toBe('WAVE');
    expect(ascii(wav, 12)).toBe('fmt ');
    expect(view.getUint32(16, true)).toBe(16);
    expect(view.getUint16(20, true)).toBe(1); // PCM
    expect(view.getUint16(22, true)).toBe(1); // mono
    expect(view.getUint32(24, true)).toBe(8000);
    expect(view.getUint32(28, true)).toBe(8000); // byte rate
    expect(view.getUint16(32, true)).toBe(1); // block align
    expect(view.getUint16(34, true)).toBe(8);
    expect(ascii(wav, 36)).toBe('data');
    expect(view.getUint32(40, true)).toBe(wav.length - 44);
    expect((wav.length - 44) % 2).toBe(0);
    expect(sampleRate).toBe(8000);
    expect(wordCount).toBe(7);
    expect(parseWavHeader(wav)).toEqual({
      sampleRate: 8000, channels: 1, bitsPerSample: 8, dataBytes: wav.length - 44, durationSeconds,
    });
  });

  it('is deterministic, and the seed varies the sound but not the timing', () => {
    const text = words(30);
    expect(speak(text).wav).toEqual(speak(text).wav);
    const other = speak(text, 'aria', 'other seed');
    expect(other.wav.length).toBe(speak(text).wav.length);
    expect(other.wav).not.toEqual(speak(text).wav);
  });

  it('takes wordCount / wordsPerMinute minutes plus lead-in and tail', () => {
    for (const voice of VOICES) {
      const { durationSeconds, wordCount } = speak(words(100), voice.id);
      const expected = (100 * 60) / voice.wordsPerMinute + SPEECH_LEAD_IN_SECONDS + SPEECH_TAIL_SECONDS;
      expect(wordCount).toBe(100);
      expect(durationSeconds).toBeCloseTo(expected, 1);
    }
  });

  it('grows in proportion to the word count', () => {
    const d100 = speak(words(100)).durationSeconds;
    const d200 = speak(words(200)).durationSeconds;
    expect(d200 / d100).toBeGreaterThan(1.9);
    expect(d200 / d100).toBeLessThan(2.1);
  });

  it('follows the pace of the voice', () => {
    const text = words(120);
    const durations = VOICES.map((v) => speak(text, v.id).durationSeconds);
    expect(new Set(durations).size).toBe(5);
    const fastest = VOICES.reduce((a, b) => (a.wordsPerMinute > b.wordsPerMinute ? a : b));
    const slowest = VOICES.reduce((a, b) => (a.wordsPerMinute < b.wordsPerMinute ? a : b));
    expect(speak(text, fastest.id).durationSeconds).toBeLessThan(speak(text, slowest.id).durationSeconds);
  });

  it('pauses at punctuation and paragraph breaks', () => {
    const plain = speak('one two three four five six').durationSeconds;
    expect(speak('one two, three four. five six').durationSeconds - plain).toBeCloseTo(PAUSE_SECONDS.clause + PAUSE_SECONDS.sentence, 2);
    expect(speak('one two three\n\nfour five six').durationSeconds - plain).toBeCloseTo(PAUSE_SECONDS.paragraph, 2);
  });

  it('renders a short silent file for text without words', () => {
    for (const text of ['', '   \n\n ', '— ... ###']) {
      const { wav, durationSeconds, wordCount } = speak(text);
      expect(wordCount).toBe(0);
      expect(durationSeconds).toBe(0.5);
      expect(parseWavHeader(wav).durationSeconds).toBe(0.5);
      expect(wav.subarray(44).every((b) => b === 128)).toBe(true);
    }
  });

  it('renders audible sound with every voice, each differently', () => {
    const text = 'Welcome to the listen version of this article. Shall we begin?';
    const rendered = VOICE_IDS.map((id) => speak(text, id).wav);
    for (const wav of rendered) {
      const samples = wav.subarray(44);
      const loud = samples.filter((b) => Math.abs(b - 128) > 40).length;
      expect(loud).toBeGreaterThan(samples.length * 0.05);
    }
    expect(new Set(rendered.map((w) => w.join(','))).size).toBe(5);
  });

  it('speechDurationSeconds predicts the rendered duration', () => {
    const text = 'A heading\n\nSome text, with pauses. And a question? Yes!';
    for (const id of VOICE_IDS) expect(speechDurationSeconds(text, id)).toBe(speak(text, id).durationSeconds);
  });

  it('speechStats predicts the rendered file without rendering it', () => {
    const text = 'Two short sentences. Then a third one, with a clause.';
    for (const id of VOICE_IDS) {
      const wav = speak(text, id);
      expect(speechStats(text, id)).toEqual({ durationSeconds: wav.durationSeconds, sampleRate: wav.sampleRate, wordCount: wav.wordCount, bytes: wav.wav.length });
    }
  });

  it('rejects an unknown voice clearly', () => {
    expect(() => speak('hi', 'nova' as VoiceId)).toThrow(/Unknown voice "nova"/);
  });

  // How fast it renders is measured by the benchmarks, not here: a timed assertion fails on a busy machine.
  it('renders 1000 words within 4 MB', () => {
    const { wav } = speak(words(1000), 'cedar'); // the slowest voice gives the longest file
    expect(wav.length).toBeLessThan(4 * 1024 * 1024);
  });
});

describe('VOICES', () => {
  it('offers five distinct voices', () => {
    expect(VOICES.map((v) => v.id)).toEqual(['aria', 'brook', 'cedar', 'dune', 'ember']);
    expect(new Set(VOICES.map((v) => v.pitchHz)).size).toBe(5);
    expect(new Set(VOICES.map((v) => v.wordsPerMinute)).size).toBe(5);
    expect(new Set(VOICES.map((v) => v.name)).size).toBe(5);
    for (const v of VOICES) expect(['female', 'male', 'neutral']).toContain(v.gender);
    expect(getVoice('dune').name).toBe('Dune');
    expect(Object.isFrozen(VOICES)).toBe(true);
  });
});

describe('parseWavHeader', () => {
  it('walks past extra chunks and rejects non-WAV bytes', () => {
    const { wav } = speak('hello');
    const list = new Uint8Array([...'LIST'].map((c) => c.charCodeAt(0)).concat([4, 0, 0, 0, 1, 2, 3, 4]));
    const withList = new Uint8Array(wav.length + list.length);
    withList.set(wav.subarray(0, 36));
    withList.set(list, 36);
    withList.set(wav.subarray(36), 36 + list.length);
    expect(parseWavHeader(withList)).toEqual(parseWavHeader(wav));
    expect(() => parseWavHeader(new Uint8Array(4))).toThrow(/Not a WAV/);
    expect(() => parseWavHeader(new TextEncoder().encode('RIFF....AVI LIST'))).toThrow(/Not a WAV/);
  });
});
