import type { Check } from '../check.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { expectError, expectStatus } from './expect.js';

const CHAT_CAP = 'openapi.yaml: a conversation holds at most 100 messages (50 exchanges); one more gets 409 CONFLICT naming the chat and its limit, and adds nothing';
const PER_VOICE = 'openapi.yaml: one listen version per deliverable and voice: each of the five voices makes its own, asking again answers it with 200, and the deliverable lists one per voice';

/** The limits of less-visited operations, reached: a full conversation, every voice of a deliverable. */
export function capChecks(): Check[] {
  return [
    {
      id: 'chat.cap',
      title: CHAT_CAP,
      level: 'strict',
      covers: ['postChatMessage', 'getChat'],
      requests: 56,
      run: async (s) => {
        const { id: targetId } = await s.fixtures.target();
        const created = await s.client.op('createChat', {}, { body: { targetId, title: `Contract chat cap ${s.config.runId}` } });
        expectStatus(created, 201, CHAT_CAP);
        const chatId = created.json.id as string;
        for (let i = 1; i <= 50; i++) {
          const reply = await s.client.op('postChatMessage', { chatId }, { body: { content: `Question ${i} about the brand voice` } });
          expectStatus(reply, 201, `${CHAT_CAP}: exchange ${i} of 50`);
        }
        const full = await s.client.op('postChatMessage', { chatId }, { body: { content: 'One message too many' } });
        expectError(full, 409, 'CONFLICT', `${CHAT_CAP}: the 51st exchange`);
        expectEqual([full.json.details?.chatId, full.json.details?.maxMessages], [chatId, 100], `${CHAT_CAP}: details.chatId and details.maxMessages`);
        const chat = await s.client.op('getChat', { chatId });
        expectEqual([chat.json.messageCount, chat.json.messages?.length], [100, 100], `${CHAT_CAP}: messageCount and messages of the full conversation`);
      },
    },
    {
      id: 'audio.voices-per-deliverable',
      title: PER_VOICE,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['createAudio', 'listAudio'],
      requests: 14,
      run: async (s) => {
        const { id: deliverableId } = await s.fixtures.deliverable();
        const voices = ((await s.client.op('listVoices')).json?.data ?? []) as Array<{ id: string }>;
        expectEqual(voices.length, 5, `${PER_VOICE}: voices listed`);
        const ids = new Map<string, string>();
        for (const { id: voice } of voices) {
          const reply = await s.client.op('createAudio', { deliverableId }, { body: { voice } });
          expectThat(reply.status === 201 || reply.status === 200, `${PER_VOICE}: voice ${voice} answered ${reply.status} ${reply.text.slice(0, 160)}`);
          expectEqual([reply.json.voice, reply.json.deliverableId], [voice, deliverableId], `${PER_VOICE}: the record of voice ${voice}`);
          ids.set(voice, reply.json.id);
        }
        expectEqual(new Set(ids.values()).size, 5, `${PER_VOICE}: distinct listen versions for five voices`);
        const [voice, id] = [...ids][2]!;
        const again = await s.client.op('createAudio', { deliverableId }, { body: { voice } });
        expectStatus(again, 200, `${PER_VOICE}: asking again for voice ${voice}`);
        expectEqual(again.json.id, id, `${PER_VOICE}: asking again for voice ${voice} answers its record`);
        const listed = await s.client.op('listAudio', {}, { query: { deliverableId, limit: '100' } });
        expectEqual((listed.json.data as Array<{ id: string }>).map((a) => a.id).sort(), [...ids.values()].sort(), `${PER_VOICE}: the deliverable's listen versions`);
      },
    },
  ];
}
