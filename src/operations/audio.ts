import { assertRoomFor } from '../limits/quotas.js';
import { audioJson, voicesJson } from '../audio/audio-json.js';
import { createAudio as create, findAudio, renderAudioFile } from '../audio/audio-service.js';
import type { VoiceId } from '../media/index.js';
import type { ServiceHandler } from './context.js';
import { pageJson } from './serialize.js';

export const listVoices: ServiceHandler = () => ({ status: 200, json: voicesJson() });

export const createAudio: ServiceHandler = ({ sim, account, params, body, now }) => {
  const { voice } = body as { voice: VoiceId };
  const { created, audio } = create(sim.builds, account, params.path.deliverableId as string, voice, now, () => assertRoomFor(sim.quotas, account, 'audio'));
  return { status: created ? 201 : 200, json: audioJson(audio), headers: { location: `/api/v1/audio/${audio.id}` } };
};

export const listAudio: ServiceHandler = ({ account, params }) => {
  const { limit, cursor, deliverableId } = params.query as { limit: number; cursor?: string; deliverableId?: string };
  const page = deliverableId === undefined ? account.audio.page(limit, cursor) : account.audio.pageBy('deliverableId', deliverableId, limit, cursor);
  return { status: 200, json: pageJson(page, audioJson) };
};

export const getAudio: ServiceHandler = ({ account, params }) => ({
  status: 200,
  json: audioJson(findAudio(account, params.path.audioId as string)),
});

export const getAudioFile: ServiceHandler = ({ sim, account, params, now }) => {
  const audio = findAudio(account, params.path.audioId as string);
  const { wav, fileName } = renderAudioFile(sim.builds, account, audio, now);
  return {
    status: 200,
    file: { body: wav, contentType: 'audio/wav' },
    headers: { 'content-disposition': `attachment; filename="${fileName}"` },
  };
};
