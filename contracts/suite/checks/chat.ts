import type { Check } from '../check.js';
import type { Reply } from '../http-client.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

const CREATE = 'openapi.yaml: POST /api/v1/chats answers 201 with an empty conversation about the target, with its title and Location';
const EXCHANGE = 'openapi.yaml: a message answers 201 with the user\'s message and an assistant reply, and both join the conversation: its history grows by two, oldest first';
const LIST = 'openapi.yaml: GET /api/v1/chats?targetId= lists the target\'s conversations with their message counts';

interface Conversation {
  targetId: string;
  title: string;
  created: Reply;
}

function conversation(s: Session): Promise<Conversation> {
  return s.fixtures.shared('a conversation', async () => {
    const { id: targetId } = await s.fixtures.target();
    const title = `Contract chat ${s.config.runId}`;
    const created = await s.client.op('createChat', {}, { body: { targetId, title } });
    expectStatus(created, 201, CREATE);
    return { targetId, title, created };
  });
}

async function say(s: Session, chatId: string, content: string): Promise<any> {
  const reply = await s.client.op('postChatMessage', { chatId }, { body: { content } });
  expectStatus(reply, 201, EXCHANGE);
  const { message, reply: answer } = reply.json;
  expectEqual([reply.json.chatId, message.role, message.content, answer.role], [chatId, 'user', content, 'assistant'], `${EXCHANGE}: chatId, the message (role, content) and the reply's role`);
  expectThat(answer.content.trim().length > 0, `${EXCHANGE}: the reply has content`);
  return reply.json;
}

/** The brand assistant (inferred by openapi.yaml; the spec names a conversational assistant, no endpoint). */
export function chatChecks(): Check[] {
  return [
    {
      id: 'chat.create',
      title: CREATE,
      level: 'strict',
      covers: ['createChat'],
      requests: 2,
      run: async (s) => {
        const { targetId, title, created } = await conversation(s);
        const chat = created.json;
        expectEqual([chat.targetId, chat.title, chat.messageCount, chat.messages], [targetId, title, 0, []], `${CREATE}: targetId, title, messageCount, messages`);
        expectEqual(created.headers.location, `/api/v1/chats/${chat.id}`, `${CREATE}: Location`);
      },
    },
    {
      id: 'chat.exchange',
      title: EXCHANGE,
      level: 'strict',
      covers: ['postChatMessage', 'getChat'],
      requests: 6,
      run: async (s) => {
        const { created } = await conversation(s);
        const chatId = created.json.id;
        const history: Array<{ id: string; role: string; content: string }> = [];
        for (const content of ['Can you give me three headlines about cold brew at home?', 'What is the tone of our brand?']) {
          await s.time.sleep(1000); // so that updatedAt can move
          const exchange = await say(s, chatId, content);
          history.push(exchange.message, exchange.reply);
          const chat = await s.client.op('getChat', { chatId });
          expectStatus(chat, 200, `${EXCHANGE}: the conversation`);
          expectEqual(chat.json.messageCount, history.length, `${EXCHANGE}: messageCount`);
          const seen = chat.json.messages.map((m: { id: string; role: string; content: string }) => ({ id: m.id, role: m.role, content: m.content }));
          expectEqual(seen, history.map((m) => ({ id: m.id, role: m.role, content: m.content })), `${EXCHANGE}: the messages (id, role, content), oldest first`);
          expectEqual(chat.json.updatedAt, exchange.reply.createdAt, `${EXCHANGE}: updatedAt is when the last message was added`);
        }
      },
    },
    {
      id: 'chat.list',
      title: LIST,
      level: 'strict',
      covers: ['listChats'],
      requests: 3,
      run: async (s) => {
        const { targetId, created } = await conversation(s);
        const chat = await s.client.op('getChat', { chatId: created.json.id });
        const listed = await s.client.op('listChats', {}, { query: { targetId } });
        expectStatus(listed, 200, LIST);
        const entry = listed.json.data.find((c: { id: string }) => c.id === created.json.id);
        expectThat(entry !== undefined, `${LIST}: the conversation is listed`);
        expectThat(listed.json.data.every((c: { targetId: string }) => c.targetId === targetId), `${LIST}: only conversations about the target`);
        expectEqual(entry.messageCount, chat.json.messageCount, `${LIST}: messageCount as the conversation shows it`);
      },
    },
  ];
}
