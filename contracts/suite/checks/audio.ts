import type { Check } from '../check.js';
import { readBalance, type Balance } from '../fixtures.js';
import type { Reply } from '../http-client.js';
import { ContractFailure, expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus, mediaType } from './expect.js';

const VOICES = 'openapi.yaml: GET /api/v1/audio/voices lists the five voices, each with its own id and a speaking pace';
const CREATE = 'openapi.yaml: POST /api/v1/deliverables/{deliverableId}/audio answers 201 with the listen version of that deliverable and voice, at no token cost; asking again answers the same record with 200';
const READ = 'openapi.yaml: GET /api/v1/audio/{audioId} answers the listen version, and ?deliverableId= lists it';
const FILE = 'openapi.yaml: the listen version is a PCM RIFF/WAVE file served as audio/wav, of the record\'s size and sample rate, whose data lasts durationSeconds';

interface Listen {
  deliverableId: string;
  buildId: string;
  voice: string;
  reply: Reply;
  before: Balance;
  after: Balance;
}

function listen(s: Session): Promise<Listen> {
  return s.fixtures.shared('a listen version', async () => {
    const { id: deliverableId } = await s.fixtures.deliverable();
    const { buildId } = await s.fixtures.blogBuild();
    const voices = await s.client.op('listVoices');
    const voice = String(voices.json?.data?.[0]?.id ?? 'aria');
    const before = await readBalance(s);
    const reply = await s.client.op('createAudio', { deliverableId }, { body: { voice } });
    expectStatus(reply, 201, CREATE);
    return { deliverableId, buildId, voice, reply, before, after: await readBalance(s) };
  });
}

interface WavHeader {
  riffSize: number;
  format: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  bitsPerSample: number;
  dataSize: number;
  dataOffset: number;
}

/** Reads a RIFF/WAVE file's chunks: its fmt and where its data is; a description of the problem if it is not one. */
export function readWavHeader(bytes: Uint8Array): WavHeader | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return `no RIFF/WAVE tags: starts ${JSON.stringify(tag(0))}…${JSON.stringify(tag(8))}`;
  let fmt: Omit<WavHeader, 'riffSize' | 'dataSize' | 'dataOffset'> | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && at + 24 <= bytes.length) {
      fmt = { format: view.getUint16(at + 8, true), channels: view.getUint16(at + 10, true), sampleRate: view.getUint32(at + 12, true), byteRate: view.getUint32(at + 16, true), bitsPerSample: view.getUint16(at + 22, true) };
    } else if (id === 'data') {
      if (!fmt) return 'the data chunk comes before the fmt chunk';
      return { ...fmt, riffSize: view.getUint32(4, true), dataSize: size, dataOffset: at + 8 };
    }
    at += 8 + size + (size % 2);
  }
  return 'no data chunk';
}

/** The listen version of a deliverable (inferred by openapi.yaml; the spec names five voices, no endpoint). */
export function audioChecks(): Check[] {
  const needsDeliverable = { level: 'strict' as const, groups: ['spend' as const, 'wait' as const] };
  return [
    {
      id: 'audio.voices',
      title: VOICES,
      level: 'strict',
      covers: ['listVoices'],
      requests: 1,
      run: async (s) => {
        const reply = await s.client.op('listVoices');
        expectStatus(reply, 200, VOICES);
        const voices = reply.json.data as Array<{ id: string; wordsPerMinute: number }>;
        expectEqual(voices.length, 5, `${VOICES}: the number of voices`);
        expectEqual(new Set(voices.map((v) => v.id)).size, 5, `${VOICES}: distinct ids`);
        expectThat(voices.every((v) => Number.isInteger(v.wordsPerMinute) && v.wordsPerMinute > 0), `${VOICES}: wordsPerMinute is a positive integer: got ${JSON.stringify(voices.map((v) => v.wordsPerMinute))}`);
      },
    },
    {
      ...needsDeliverable,
      id: 'audio.create',
      title: CREATE,
      covers: ['createAudio'],
      requests: 70,
      run: async (s) => {
        const { deliverableId, buildId, voice, reply, before, after } = await listen(s);
        const a = reply.json;
        expectEqual(after, before, `${CREATE}: the balance (audio costs no tokens)`);
        expectEqual([a.deliverableId, a.buildId, a.voice], [deliverableId, buildId, voice], `${CREATE}: deliverableId, buildId, voice`);
        expectEqual([a.fileUrl, reply.headers.location], [`/api/v1/audio/${a.id}/file`, `/api/v1/audio/${a.id}`], `${CREATE}: fileUrl and Location`);
        expectThat(a.wordCount > 0 && a.durationSeconds > 0, `${CREATE}: a deliverable's text has words and takes time to read: got wordCount ${a.wordCount}, durationSeconds ${a.durationSeconds}`);
        const again = await s.client.op('createAudio', { deliverableId }, { body: { voice } });
        expectStatus(again, 200, `${CREATE}: asking again`);
        expectEqual(again.json, a, `${CREATE}: asking again answers the same record`);
      },
    },
    {
      ...needsDeliverable,
      id: 'audio.read',
      title: READ,
      covers: ['getAudio', 'listAudio'],
      requests: 72,
      run: async (s) => {
        const { deliverableId, reply } = await listen(s);
        const fetched = await s.client.op('getAudio', { audioId: reply.json.id });
        expectStatus(fetched, 200, READ);
        expectEqual(fetched.json, reply.json, `${READ}: GET answers the created record`);
        const listed = await s.client.op('listAudio', {}, { query: { deliverableId } });
        expectStatus(listed, 200, `${READ}: the list`);
        expectEqual(listed.json.data.map((x: { id: string }) => x.id), [reply.json.id], `${READ}: the listen versions of the deliverable`);
      },
    },
    {
      ...needsDeliverable,
      id: 'audio.file',
      title: FILE,
      covers: ['getAudioFile'],
      requests: 71,
      run: async (s) => {
        const { reply } = await listen(s);
        const a = reply.json;
        const file = await s.client.op('getAudioFile', { audioId: a.id });
        expectStatus(file, 200, FILE);
        expectEqual(mediaType(file), 'audio/wav', `${FILE}: Content-Type`);
        expectEqual(file.bytes.length, a.bytes, `${FILE}: the file's length is the record's bytes`);
        const wav = readWavHeader(file.bytes);
        if (typeof wav === 'string') throw new ContractFailure(`${FILE}: ${wav}`);
        expectEqual([wav.format, wav.sampleRate], [1, a.sampleRate], `${FILE}: PCM (format 1) at the record's sampleRate`);
        expectEqual(wav.riffSize, file.bytes.length - 8, `${FILE}: the RIFF size is the file's length − 8`);
        expectEqual(wav.dataSize, file.bytes.length - wav.dataOffset, `${FILE}: the data chunk's size is what follows its header`);
        const expectedRate = wav.sampleRate * wav.channels * (wav.bitsPerSample / 8);
        expectEqual(wav.byteRate, expectedRate, `${FILE}: byte rate = sample rate × channels × bytes per sample`);
        const seconds = wav.dataSize / wav.byteRate;
        expectThat(Math.abs(seconds - a.durationSeconds) <= 0.01, `${FILE}: the data lasts ${seconds.toFixed(3)} s, the record says durationSeconds ${a.durationSeconds}`);
      },
    },
  ];
}
