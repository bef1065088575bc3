import { toIso } from '../clock/clock.js';
import { VOICES, type Voice } from '../media/index.js';
import type { AudioRecord } from '../store/records.js';

/** A listen version as the `Audio` schema of openapi.yaml. */
export function audioJson(audio: AudioRecord) {
  return {
    id: audio.id,
    deliverableId: audio.deliverableId,
    buildId: audio.buildId,
    voice: audio.voice,
    durationSeconds: audio.durationSeconds,
    sampleRate: audio.sampleRate,
    wordCount: audio.wordCount,
    bytes: audio.bytes,
    createdAt: toIso(audio.createdAt),
    fileUrl: `/api/v1/audio/${audio.id}/file`,
  };
}

/** A voice as the `Voice` schema; its pitch is a rendering detail and stays inside. */
export function voiceJson(voice: Voice) {
  return { id: voice.id, name: voice.name, gender: voice.gender, accent: voice.accent, description: voice.description, wordsPerMinute: voice.wordsPerMinute };
}

export const voicesJson = () => ({ data: VOICES.map(voiceJson) });
