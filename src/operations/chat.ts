import { assertRoomFor } from '../limits/quotas.js';
import { chatJson, chatMessageJson, chatSummaryJson } from '../chat/chat-json.js';
import { createChat as create, findChat, postMessage, type ChatCreateInput } from '../chat/chat-service.js';
import type { ServiceHandler } from './context.js';
import { pageJson } from './serialize.js';

export const createChat: ServiceHandler = ({ sim, account, body, now }) => {
  assertRoomFor(sim.quotas, account, 'chats');
  const chat = create(account, body as ChatCreateInput, now);
  return { status: 201, json: chatJson(chat), headers: { location: `/api/v1/chats/${chat.id}` } };
};

export const listChats: ServiceHandler = ({ account, params }) => {
  const { limit, cursor, targetId } = params.query as { limit: number; cursor?: string; targetId?: string };
  const page = targetId === undefined ? account.chats.page(limit, cursor) : account.chats.pageBy('targetId', targetId, limit, cursor);
  return { status: 200, json: pageJson(page, chatSummaryJson) };
};

export const getChat: ServiceHandler = ({ account, params }) => ({
  status: 200,
  json: chatJson(findChat(account, params.path.chatId as string)),
});

export const postChatMessage: ServiceHandler = ({ sim, account, params, body, now }) => {
  const chatId = params.path.chatId as string;
  const { message, reply } = postMessage(account, sim.seed, chatId, (body as { content: string }).content, now);
  return { status: 201, json: { chatId, message: chatMessageJson(message), reply: chatMessageJson(reply) } };
};
