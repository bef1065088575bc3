/**
 * The listen version of a deliverable (spec: text-to-speech, five voices). A record keeps
 * only what it reads and its measurements; the WAV is rendered on download, deterministically,
 * and kept in the content cache (bounded in bytes, like generated content), so an account
 * holding many listen versions holds no audio of its own.
 */
import { type BuildEnvironment, type DeliverableView, findDeliverable } from '../builds/builds-service.js';
import { type VoiceId, renderSpeechWav, speechStats } from '../media/index.js';
import type { Account } from '../store/account.js';
import type { AudioRecord } from '../store/records.js';
import { speechTextOf } from './speech-script.js';

export type CreateAudioResult = { created: boolean; audio: AudioRecord };

const indexKey = (deliverableId: string, voice: VoiceId): string => `${deliverableId}:${voice}`;

/** One listen version per deliverable and voice: asking again returns the existing one. */
export function createAudio(env: BuildEnvironment, account: Account, deliverableId: string, voice: VoiceId, now: number, assertRoom: () => void = () => {}): CreateAudioResult {
  const view = findDeliverable(env, account, deliverableId, now);
  const existingId = account.audioByDeliverableVoice.get(indexKey(deliverableId, voice));
  const existing = existingId ? account.audio.get(existingId) : undefined;
  if (existing) return { created: false, audio: existing };
  // Asking again for one that exists stores nothing: only a new one needs room in the account's quota.
  assertRoom();
  const audio: AudioRecord = {
    id: account.newId(),
    deliverableId,
    buildId: view.build.id,
    voice,
    ...speechStats(speechTextOf(view.content.markdown), voice),
    createdAt: now,
  };
  account.audio.add(audio);
  account.audioByDeliverableVoice.set(indexKey(deliverableId, voice), audio.id);
  return { created: true, audio };
}

export function findAudio(account: Account, id: string): AudioRecord {
  return account.audio.require(id);
}

export interface AudioFile {
  wav: Uint8Array;
  fileName: string;
}

export function renderAudioFile(env: BuildEnvironment, account: Account, audio: AudioRecord, now: number): AudioFile {
  const view: DeliverableView = findDeliverable(env, account, audio.deliverableId, now);
  // Rendered once and kept with the build's content: a listen version is read far more often than made.
  const cached = env.contentCache?.rendered(audio.id);
  const wav = cached instanceof Uint8Array ? cached : renderSpeechWav({ seed: env.seed, text: speechTextOf(view.content.markdown), voiceId: audio.voice }).wav;
  if (!cached) env.contentCache?.keepRendered(audio.id, wav);
  const slug = /^[a-z0-9-]+$/.test(view.content.slug) ? view.content.slug : 'deliverable';
  return { wav, fileName: `${slug}-${audio.voice}.wav` };
}
