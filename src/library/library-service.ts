import { notFound, validationError, type FieldProblem } from '../errors/api-error.js';
import type { LibraryItemSnapshot } from '../content/types.js';
import type { Page } from '../store/ordered-collection.js';
import type { Account } from '../store/account.js';
import type { LibraryItemRecord, LibraryItemType } from '../store/records.js';
import { findTarget } from '../targets/targets-service.js';
import { itemWords } from './library-words.js';

/**
 * A target's library: reusable calls to action, glossary terms, product blurbs and brand
 * assets that builds can name in `libraryItemIds`. Items live in `account.library`; each
 * record names its target.
 */

/** A CTA links somewhere and a brand asset is a file somewhere: both need a URL. */
const URL_REQUIRED: ReadonlySet<LibraryItemType> = new Set<LibraryItemType>(['cta', 'brand_asset']);

export interface LibraryItemCreateInput {
  type: LibraryItemType;
  name: string;
  content: string;
  url?: string;
}

export interface LibraryItemUpdateInput {
  name?: string;
  content?: string;
  url?: string | null;
}

/** Every item of a target, newest first: what a build or the chat can draw on. */
export function listLibraryItems(account: Account, targetId: string): LibraryItemRecord[] {
  return account.library.valuesBy('targetId', targetId).reverse();
}

/** One page of a target's items, optionally of one type; 404 for an unknown target. */
export function pageLibraryItems(account: Account, targetId: string, limit: number, cursor?: string, type?: LibraryItemType): Page<LibraryItemRecord> {
  findTarget(account, targetId);
  return account.library.pageBy('targetId', targetId, limit, cursor, (item) => type === undefined || item.type === type);
}

export function findLibraryItem(account: Account, targetId: string, itemId: string): LibraryItemRecord {
  findTarget(account, targetId);
  const item = account.library.get(itemId);
  // An item of another target is as unknown here as one that never existed.
  if (!item || item.targetId !== targetId) throw notFound('library item', itemId);
  return item;
}

export function createLibraryItem(account: Account, targetId: string, input: LibraryItemCreateInput, now: number): LibraryItemRecord {
  findTarget(account, targetId);
  assertUrlFits(input.type, input.url ?? null);
  const item = account.library.add({
    id: account.newId(),
    targetId,
    type: input.type,
    name: input.name,
    content: input.content,
    url: input.url ?? null,
    createdAt: now,
    updatedAt: now,
  });
  // Its words are taken now, at the cost of this write: chat messages then never tokenize the library.
  itemWords(item);
  return item;
}

/** Applies the fields given; checks the result before writing, so a refused update changes nothing. */
export function updateLibraryItem(account: Account, targetId: string, itemId: string, input: LibraryItemUpdateInput, now: number): LibraryItemRecord {
  const item = findLibraryItem(account, targetId, itemId);
  const url = input.url === undefined ? item.url : input.url;
  assertUrlFits(item.type, url);
  if (input.name !== undefined) item.name = input.name;
  if (input.content !== undefined) item.content = input.content;
  item.url = url;
  item.updatedAt = now;
  itemWords(item);
  return item;
}

export function deleteLibraryItem(account: Account, targetId: string, itemId: string): void {
  findLibraryItem(account, targetId, itemId);
  account.library.remove(itemId);
}

function assertUrlFits(type: LibraryItemType, url: string | null): void {
  if (url === null && URL_REQUIRED.has(type)) {
    throw validationError([{ path: 'body.url', message: `is required for a ${type}: it is where the item links to` }]);
  }
}

/**
 * The items a build names, as snapshots taken now: later edits do not rewrite the build.
 * Every unknown id, or id of another target's item, is reported by its position.
 */
export function resolveLibraryItems(account: Account, targetId: string, ids: string[]): LibraryItemSnapshot[] {
  const problems: FieldProblem[] = [];
  const snapshots: LibraryItemSnapshot[] = [];
  ids.forEach((id, i) => {
    const item = account.library.get(id);
    if (!item || item.targetId !== targetId) {
      problems.push({ path: `body.libraryItemIds[${i}]`, message: `is not an item of the library of target ${targetId}` });
      return;
    }
    snapshots.push({
      id: item.id,
      type: item.type,
      name: item.name,
      content: item.content,
      ...(item.url !== null ? { url: item.url } : {}),
    });
  });
  if (problems.length > 0) throw validationError(problems);
  return snapshots;
}
