/**
 * Conversations with the brand assistant. A conversation keeps a snapshot of its target
 * (so it still answers if the target changes) but prefers the live target, so brand-kit
 * edits show in the next reply. Its history is bounded: 100 messages, then 409.
 */
import { ApiError } from '../errors/api-error.js';
import type { TargetSnapshot } from '../content/types.js';
import type { Account } from '../store/account.js';
import type { ChatMessageRecord, ChatRecord, TargetRecord } from '../store/records.js';
import { listLibraryItems } from '../library/library-service.js';
import { findTarget } from '../targets/targets-service.js';
import { contentWords } from '../suggestions/stop-words.js';
import { composeReply } from './reply.js';

export const MAX_CHAT_MESSAGES = 100;

export interface ChatCreateInput {
  targetId: string;
  title?: string;
}

function snapshot(target: TargetRecord): TargetSnapshot {
  return { id: target.id, name: target.name, slug: target.slug, description: target.description, brandKit: structuredClone(target.brandKit) };
}

export function createChat(account: Account, input: ChatCreateInput, now: number): ChatRecord {
  const target = findTarget(account, input.targetId);
  return account.chats.add({
    id: account.newId(),
    targetId: target.id,
    title: input.title?.trim() || `Chat about ${target.name}`,
    target: snapshot(target),
    messages: [],
    createdAt: now,
    updatedAt: now,
  });
}

export function findChat(account: Account, id: string): ChatRecord {
  return account.chats.require(id);
}

export interface ChatExchange {
  message: ChatMessageRecord;
  reply: ChatMessageRecord;
}

/** Adds the user's message and the reply; a full conversation refuses before writing anything. */
export function postMessage(account: Account, seed: string, chatId: string, content: string, now: number): ChatExchange {
  const chat = findChat(account, chatId);
  if (chat.messages.length + 2 > MAX_CHAT_MESSAGES) {
    throw new ApiError(409, 'CONFLICT', `This chat holds its maximum of ${MAX_CHAT_MESSAGES} messages; start a new chat.`, {
      chatId: chat.id,
      maxMessages: MAX_CHAT_MESSAGES,
    });
  }
  const live = account.targets.get(chat.targetId);
  if (live) chat.target = snapshot(live);
  // The last message with a subject of its own: what a follow-up ("another one?") refers to.
  const previous = [...chat.messages].reverse().find((m) => m.role === 'user' && contentWords(m.content).length > 0);
  const composed = composeReply({
    seed,
    chatId: chat.id,
    index: chat.messages.length + 1,
    target: chat.target,
    library: listLibraryItems(account, chat.targetId),
    message: content,
    ...(previous ? { previousMessage: previous.content } : {}),
    year: new Date(now).getUTCFullYear(),
  });
  const message: ChatMessageRecord = { id: account.newId(), role: 'user', content, references: [], createdAt: now };
  const reply: ChatMessageRecord = { id: account.newId(), role: 'assistant', content: composed.content, references: composed.references, createdAt: now };
  chat.messages.push(message, reply);
  chat.updatedAt = now;
  return { message, reply };
}
