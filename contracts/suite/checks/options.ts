import type { Check } from '../check.js';
import { expectEqual } from '../../shared/outcomes.js';
import { expectStatus, expectSuccess } from './expect.js';

const KEYWORDS_MAX = 'openapi.yaml: max takes effect: POST /api/v1/suggestions/keywords with max 1 (the default is 10) answers exactly one keyword of a text that has several';
const AUDIO_VOICE = 'openapi.yaml: voice takes effect: a listen version asked in the last listed voice (not the first) is read in that voice';
const TEXT = 'Cold brew coffee at home: grind the coffee coarse, steep the coffee in cold water overnight, filter the cold brew, and serve the cold brew over ice with milk.';

/**
 * Options whose value the other checks send at, or near, their default: asked here with a
 * value a server that ignores them cannot answer by chance.
 */
export function optionChecks(): Check[] {
  return [
    {
      id: 'options.keywords-max',
      title: KEYWORDS_MAX,
      level: 'strict',
      covers: ['extractKeywords'],
      requests: 2,
      run: async (s) => {
        const several = await s.client.op('extractKeywords', {}, { body: { text: TEXT, max: 5 } });
        expectSuccess(several, KEYWORDS_MAX);
        const one = await s.client.op('extractKeywords', {}, { body: { text: TEXT, max: 1 } });
        expectSuccess(one, KEYWORDS_MAX);
        expectEqual(one.json?.data?.length, Math.min(1, several.json?.data?.length ?? 0), `${KEYWORDS_MAX}: the number of keywords`);
      },
    },
    {
      id: 'options.audio-voice',
      title: AUDIO_VOICE,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['createAudio'],
      requests: 68,
      run: async (s) => {
        const { id } = await s.fixtures.deliverable();
        const voices = (await s.client.op('listVoices')).json?.data as Array<{ id: string }> | undefined;
        const voice = voices?.at(-1)?.id;
        if (!voice || voices.length < 2) return s.skipBecause('listVoices lists none but one voice');
        const reply = await s.client.op('createAudio', { deliverableId: id }, { body: { voice } });
        expectStatus(reply, 201, AUDIO_VOICE);
        expectEqual(reply.json?.voice, voice, `${AUDIO_VOICE}: the voice of the listen version`);
      },
    },
  ];
}
