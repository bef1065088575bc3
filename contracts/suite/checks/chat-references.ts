import type { Check } from '../check.js';
import { createTarget } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { expectStatus } from './expect.js';

export const REFERENCES = 'openapi.yaml: a chat reply names the target\'s library items the message relates to (a call to action asked for) in `references`, and uses them; the user\'s message has no references';

/** What a reply of the brand assistant draws from the target's library (openapi.yaml, postChatMessage, ChatMessage.references). */
export function chatReferenceChecks(): Check[] {
  return [
    {
      id: 'chat.references',
      title: REFERENCES,
      level: 'strict',
      covers: ['postChatMessage', 'getChat'],
      requests: 6,
      run: async (s) => {
        const target = await createTarget(s, 'chat-references');
        const cta = { type: 'cta', name: 'Roastery tour', content: `Book a roastery tour ${s.config.runId}`, url: `https://example.com/${s.config.runId}/tour` };
        const item = await s.client.op('createLibraryItem', { targetId: target.id }, { body: cta });
        expectStatus(item, 201, `${REFERENCES}: POST a call to action to the target's library`);
        const chat = await s.client.op('createChat', {}, { body: { targetId: target.id, title: `References ${s.config.runId}` } });
        expectStatus(chat, 201, `${REFERENCES}: POST /api/v1/chats`);
        const sent = await s.client.op('postChatMessage', { chatId: chat.json.id }, { body: { content: 'Which call to action should our newsletter end with?' } });
        expectStatus(sent, 201, `${REFERENCES}: POST a message`);
        const { message, reply } = sent.json;
        expectEqual(message.references, [], `${REFERENCES}: the user's message's references`);
        expectEqual(reply.references, [{ libraryItemId: item.json.id, type: 'cta', name: cta.name }], `${REFERENCES}: the reply's references (the target's one library item, a call to action)`);
        expectThat(String(reply.content).includes(cta.content), `${REFERENCES}: the reply does not use the call to action it names (${JSON.stringify(cta.content)}): ${String(reply.content).slice(0, 200)}`);
        const kept = await s.client.op('getChat', { chatId: chat.json.id });
        expectStatus(kept, 200, `${REFERENCES}: GET the conversation`);
        expectEqual(kept.json.messages.map((m: { references: unknown }) => m.references), [message.references, reply.references], `${REFERENCES}: the references the conversation keeps`);
      },
    },
  ];
}
