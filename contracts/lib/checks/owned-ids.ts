import type { Role } from '../config.js';
import { createTarget, type CreatedTarget } from '../fixtures.js';
import { SkipSignal } from '../outcomes.js';
import type { Session } from '../session.js';
import { expectSuccess } from './expect.js';

/**
 * Ids of things the run's main account owns, by path-parameter name: made by the fixtures, or
 * the first item of the list that holds them. A key id prefers a revoked key, so that a server
 * that wrongly lets another account rotate or revoke it breaks nothing that matters.
 */
export async function ownedId(s: Session, name: string, known: Record<string, string> = {}): Promise<string> {
  switch (name) {
    case 'targetId':
      return (await s.fixtures.target()).id;
    case 'buildId':
      return (await s.fixtures.blogBuild()).buildId;
    case 'deliverableId':
      return (await s.fixtures.deliverable()).id;
    case 'itemId':
      return (await libraryItem(s, known.targetId ?? (await s.fixtures.target()).id)).id;
    case 'shareId':
      return first(s, 'listShares', { deliverableId: (await s.fixtures.deliverable()).id });
    case 'imageId':
      return first(s, 'listImages');
    case 'audioId':
      return first(s, 'listAudio');
    case 'chatId':
      return first(s, 'listChats');
    case 'transactionId':
      return first(s, 'listTokenTransactions');
    case 'keyId': {
      const reply = await s.client.op('listApiKeys', {}, { query: { limit: '100' } });
      expectSuccess(reply, 'openapi.yaml: listApiKeys');
      const keys = (reply.json?.data ?? []) as Array<{ id: string; status: string }>;
      const key = keys.find((k) => k.status === 'revoked') ?? keys[0];
      if (!key) throw new SkipSignal('no existing keyId: listApiKeys lists none for this account');
      return key.id;
    }
    default:
      throw new SkipSignal(`no way to find an existing ${name} of the account`);
  }
}

/** Values for every path parameter of an operation: ids the main account owns. */
export async function ownedPathValues(s: Session, path: string): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) values[name as string] = await ownedId(s, name as string, values);
  return values;
}

/** A library item of the run's target, made once (the library checks delete theirs). */
function libraryItem(s: Session, targetId: string): Promise<{ id: string }> {
  return s.fixtures.shared(`a library item of target ${targetId}`, async () => {
    const body = { type: 'glossary_term', name: `${s.config.runId} term`, content: 'A word and its meaning.' };
    const reply = await s.client.op('createLibraryItem', { targetId }, { body });
    expectSuccess(reply, 'openapi.yaml: POST /api/v1/targets/{targetId}/library creates an item');
    return { id: String(reply.json.id) };
  });
}

async function first(s: Session, operationId: string, path: Record<string, string> = {}): Promise<string> {
  const reply = await s.client.op(operationId, path, { query: { limit: '1' } });
  expectSuccess(reply, `openapi.yaml: ${operationId}`);
  const id = reply.json?.data?.[0]?.id;
  if (!id) throw new SkipSignal(`no existing item: ${operationId} lists none for this account`);
  return String(id);
}

/** A target of the second account (the one of the empty-balance key): the reference another account owns. */
export function foreignTarget(s: Session, as: Role = 'empty'): Promise<CreatedTarget> {
  return s.fixtures.shared('a target of the second account', () => createTarget(s, 'foreign', as));
}
