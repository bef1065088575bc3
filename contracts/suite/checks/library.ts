import type { Check } from '../check.js';
import { createTarget, type CreatedTarget } from '../fixtures.js';
import type { Reply } from '../http-client.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectNoContent, expectStatus } from './expect.js';

const CREATE = 'openapi.yaml: POST /api/v1/targets/{targetId}/library answers 201 with the item as sent, its target and a Location; GET answers the same';
const LIST = 'openapi.yaml: the library lists a target\'s items newest first, and ?type= only those of that type';
const UPDATE = 'openapi.yaml: PATCH of a library item changes only the fields sent and moves updatedAt; GET answers the change; the type cannot change (400 VALIDATION_ERROR)';
const DELETE = 'openapi.yaml: DELETE of a library item answers 204 with no body; the item is then 404 and no longer listed';
const OTHER_TARGET = 'openapi.yaml: an item of another target is not found under this one (404 NOT_FOUND)';

interface Library {
  target: CreatedTarget;
  cta: Reply;
  term: Reply;
  sent: { cta: Record<string, unknown>; term: Record<string, unknown> };
}

/** A target of its own with a call to action, then a glossary term: made once, read by every library check. */
function library(s: Session): Promise<Library> {
  return s.fixtures.shared('a library of two items', async () => {
    const target = await createTarget(s, 'library');
    const sent = {
      cta: { type: 'cta', name: 'Contract CTA', content: 'Book a tasting', url: `https://example.com/${s.config.runId}/tasting` },
      term: { type: 'glossary_term', name: 'Bloom', content: 'The burst of gas when hot water first meets fresh grounds' },
    };
    const cta = await s.client.op('createLibraryItem', { targetId: target.id }, { body: sent.cta });
    expectStatus(cta, 201, CREATE);
    const term = await s.client.op('createLibraryItem', { targetId: target.id }, { body: sent.term });
    expectStatus(term, 201, CREATE);
    return { target, cta, term, sent };
  });
}

export function libraryChecks(): Check[] {
  return [
    {
      id: 'library.create',
      title: CREATE,
      level: 'strict',
      covers: ['createLibraryItem', 'getLibraryItem'],
      requests: 5,
      run: async (s) => {
        const { target, cta, term, sent } = await library(s);
        for (const [reply, body] of [[cta, sent.cta], [term, sent.term]] as const) {
          const item = reply.json;
          expectEqual([item.targetId, item.type, item.name, item.content, item.url], [target.id, body.type, body.name, body.content, body.url ?? null], `${CREATE}: targetId, type, name, content, url (null when none is sent)`);
          expectEqual(reply.headers.location, `/api/v1/targets/${target.id}/library/${item.id}`, `${CREATE}: Location`);
          const fetched = await s.client.op('getLibraryItem', { targetId: target.id, itemId: item.id });
          expectStatus(fetched, 200, `${CREATE}: GET of the item`);
          expectEqual(fetched.json, item, `${CREATE}: GET answers the created item`);
        }
      },
    },
    {
      id: 'library.list',
      title: LIST,
      level: 'strict',
      covers: ['listLibraryItems'],
      requests: 4,
      run: async (s) => {
        const { target, cta, term } = await library(s);
        const all = await s.client.op('listLibraryItems', { targetId: target.id });
        expectStatus(all, 200, LIST);
        expectEqual(all.json.data.map((i: { id: string }) => i.id), [term.json.id, cta.json.id], `${LIST}: the items, newest first`);
        const ctas = await s.client.op('listLibraryItems', { targetId: target.id }, { query: { type: 'cta' } });
        expectStatus(ctas, 200, LIST);
        expectEqual(ctas.json.data.map((i: { id: string }) => i.id), [cta.json.id], `${LIST}: ?type=cta`);
      },
    },
    {
      id: 'library.update',
      title: UPDATE,
      level: 'strict',
      covers: ['updateLibraryItem', 'getLibraryItem'],
      requests: 6,
      run: async (s) => {
        const { target, term } = await library(s);
        const before = term.json;
        await s.time.sleep(1000); // so that a moved updatedAt shows
        const content = 'The first rise of bubbles from fresh coffee';
        const reply = await s.client.op('updateLibraryItem', { targetId: target.id, itemId: before.id }, { body: { content } });
        expectStatus(reply, 200, UPDATE);
        const after = reply.json;
        expectEqual([after.id, after.type, after.name, after.content, after.url, after.createdAt], [before.id, before.type, before.name, content, before.url, before.createdAt], `${UPDATE}: content changed, the rest kept`);
        expectThat(Date.parse(after.updatedAt) > Date.parse(before.updatedAt), `${UPDATE}: updatedAt moves: it was ${before.updatedAt}, it is ${after.updatedAt}`);
        const retyped = await s.client.op('updateLibraryItem', { targetId: target.id, itemId: before.id }, { body: { type: 'cta', content: 'Retyped' } });
        expectError(retyped, 400, 'VALIDATION_ERROR', `${UPDATE}: a PATCH that changes the type`);
        const fetched = await s.client.op('getLibraryItem', { targetId: target.id, itemId: before.id });
        expectEqual(fetched.json, after, `${UPDATE}: GET answers the updated item`);
      },
    },
    {
      id: 'library.other-target',
      title: OTHER_TARGET,
      level: 'strict',
      covers: ['getLibraryItem'],
      requests: 5,
      run: async (s) => {
        const { cta } = await library(s);
        const other = await s.fixtures.target();
        const reply = await s.client.op('getLibraryItem', { targetId: other.id, itemId: cta.json.id });
        expectError(reply, 404, 'NOT_FOUND', OTHER_TARGET);
      },
    },
    {
      id: 'library.delete',
      title: DELETE,
      level: 'strict',
      covers: ['deleteLibraryItem'],
      requests: 8,
      run: async (s) => {
        const { target } = await library(s);
        const item = await s.client.op('createLibraryItem', { targetId: target.id }, { body: { type: 'product_blurb', name: 'Cold brew kit', content: 'A litre of concentrate overnight.' } });
        expectStatus(item, 201, `${DELETE}: an item to delete`);
        const path = { targetId: target.id, itemId: item.json.id };
        expectNoContent(await s.client.op('deleteLibraryItem', path), DELETE);
        expectError(await s.client.op('getLibraryItem', path), 404, 'NOT_FOUND', `${DELETE}: GET of the deleted item`);
        expectError(await s.client.op('deleteLibraryItem', path), 404, 'NOT_FOUND', `${DELETE}: a second DELETE`);
        const listed = await s.client.op('listLibraryItems', { targetId: target.id });
        expectThat(!listed.json.data.some((i: { id: string }) => i.id === item.json.id), `${DELETE}: yet the list still shows ${item.json.id}`);
      },
    },
  ];
}
