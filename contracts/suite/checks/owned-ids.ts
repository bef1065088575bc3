import type { Role } from '../config.js';
import { createTarget, type CreatedTarget } from '../fixtures.js';
import { SkipSignal } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectSuccess } from './expect.js';

/**
 * Ids of things the run's main account owns, by path-parameter name: made by the fixtures, or
 * the first item of the list that holds them. A key id is a key this run made and revoked, so
 * that a server that wrongly lets another account rotate or revoke it breaks nothing real.
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
    case 'keyId':
      return revokedKeyOfRun(s);
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

/** A read-only key named for the run, revoked at once: never one of the account's real keys. */
function revokedKeyOfRun(s: Session): Promise<string> {
  return s.fixtures.shared('a revoked key of this run', async () => {
    const created = await s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} isolation`, scopes: ['svc:read'] } });
    expectSuccess(created, 'openapi.yaml: POST /api/v1/keys creates a key');
    const id = String(created.json.id);
    expectSuccess(await s.client.op('revokeApiKey', { keyId: id }), 'openapi.yaml: DELETE /api/v1/keys/{keyId} revokes it');
    return id;
  });
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
