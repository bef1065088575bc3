import type { Session } from '../session.js';
import { expectSuccess } from '../checks/expect.js';
import { ownedPathValues } from '../checks/owned-ids.js';

/**
 * The operations whose bodies the properties generate, and what each needs from the account:
 * its path values, the ids a body names (they cannot be made up), how to read back what it
 * made, and how to clean up. Only operations that spend no tokens: a server that wrongly
 * accepted a broken body would otherwise charge for it.
 */
export interface Subject {
  op: string;
  /** The path values and the ids the body must name. */
  context(s: Session): Promise<{ path: Record<string, string>; given: Record<string, unknown> }>;
  /** The GET that reads back what the call made: its operation and path values. */
  readBack?: (made: any, path: Record<string, string>) => { op: string; path: Record<string, string> };
  /** The list that shows it, and how to find it there. */
  listedIn?: (made: any, path: Record<string, string>) => { op: string; path: Record<string, string> };
  /** Undo what an accepted call made, so that the run leaves nothing active behind. */
  cleanUp?: (s: Session, made: any, path: Record<string, string>) => Promise<void>;
}

const target = async (s: Session) => ({ targetId: (await s.fixtures.target()).id });

/** A chat of the run, made once (the chat checks' own may be at their cap). */
export function runChat(s: Session): Promise<string> {
  return s.fixtures.shared('a chat of the property checks', async () => {
    const made = await s.client.op('createChat', {}, { body: { targetId: (await s.fixtures.target()).id, title: 'Property checks' } });
    expectSuccess(made, 'openapi.yaml: POST /api/v1/chats starts a conversation');
    return String(made.json.id);
  });
}

export const SUBJECTS: readonly Subject[] = [
  {
    op: 'createTarget',
    context: async () => ({ path: {}, given: {} }),
    readBack: (made) => ({ op: 'getTarget', path: { targetId: made.id } }),
    listedIn: () => ({ op: 'listTargets', path: {} }),
    cleanUp: async (s, made) => void (await s.client.op('deleteTarget', { targetId: made.id })),
  },
  { op: 'updateTarget', context: async (s) => ({ path: await ownedPathValues(s, '/{targetId}'), given: {} }) },
  {
    op: 'createLibraryItem',
    context: async (s) => ({ path: await target(s), given: {} }),
    readBack: (made, path) => ({ op: 'getLibraryItem', path: { ...path, itemId: made.id } }),
    listedIn: (_, path) => ({ op: 'listLibraryItems', path }),
    cleanUp: async (s, made, path) => void (await s.client.op('deleteLibraryItem', { ...path, itemId: made.id })),
  },
  { op: 'updateLibraryItem', context: async (s) => ({ path: await ownedPathValues(s, '/{targetId}/{itemId}'), given: {} }) },
  {
    op: 'createApiKey',
    context: async () => ({ path: {}, given: {} }),
    readBack: (made) => ({ op: 'getApiKey', path: { keyId: made.id } }),
    listedIn: () => ({ op: 'listApiKeys', path: {} }),
    cleanUp: async (s, made) => void (await s.client.op('revokeApiKey', { keyId: made.id })),
  },
  {
    op: 'createChat',
    context: async (s) => ({ path: {}, given: await target(s) }),
    readBack: (made) => ({ op: 'getChat', path: { chatId: made.id } }),
    listedIn: () => ({ op: 'listChats', path: {} }),
  },
  { op: 'postChatMessage', context: async (s) => ({ path: { chatId: await runChat(s) }, given: {} }) },
  { op: 'extractKeywords', context: async () => ({ path: {}, given: {} }) },
  { op: 'suggestTopics', context: async (s) => ({ path: {}, given: await target(s) }) },
  { op: 'suggestQuotes', context: async (s) => ({ path: {}, given: await target(s) }) },
  { op: 'suggestBrief', context: async (s) => ({ path: {}, given: await target(s) }) },
];
