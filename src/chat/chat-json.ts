import { toIso } from '../clock/clock.js';
import type { ChatMessageRecord, ChatRecord } from '../store/records.js';

/** Conversations as the `ChatSummary`, `Chat` and `ChatMessage` schemas of openapi.yaml. */
export function chatSummaryJson(chat: ChatRecord) {
  return {
    id: chat.id,
    targetId: chat.targetId,
    title: chat.title,
    messageCount: chat.messages.length,
    createdAt: toIso(chat.createdAt),
    updatedAt: toIso(chat.updatedAt),
  };
}

export function chatJson(chat: ChatRecord) {
  return { ...chatSummaryJson(chat), messages: chat.messages.map(chatMessageJson) };
}

export function chatMessageJson(message: ChatMessageRecord) {
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    references: message.references.map((r) => ({ ...r })),
    createdAt: toIso(message.createdAt),
  };
}
