import { assertRoomFor } from '../limits/quotas.js';
import {
  createLibraryItem as create,
  deleteLibraryItem as remove,
  findLibraryItem,
  pageLibraryItems,
  updateLibraryItem as update,
  type LibraryItemCreateInput,
  type LibraryItemUpdateInput,
} from '../library/library-service.js';
import type { LibraryItemType } from '../store/records.js';
import type { ServiceHandler } from './context.js';
import { libraryItemJson, pageJson } from './serialize.js';

export const createLibraryItem: ServiceHandler = ({ sim, account, params, body, now }) => {
  const targetId = params.path.targetId as string;
  assertRoomFor(sim.quotas, account, 'libraryItems');
  const item = create(account, targetId, body as LibraryItemCreateInput, now);
  return { status: 201, json: libraryItemJson(item), headers: { location: `/api/v1/targets/${targetId}/library/${item.id}` } };
};

export const listLibraryItems: ServiceHandler = ({ account, params }) => {
  const { limit, cursor, type } = params.query as { limit: number; cursor?: string; type?: LibraryItemType };
  const page = pageLibraryItems(account, params.path.targetId as string, limit, cursor, type);
  return { status: 200, json: pageJson(page, libraryItemJson) };
};

export const getLibraryItem: ServiceHandler = ({ account, params }) => ({
  status: 200,
  json: libraryItemJson(findLibraryItem(account, params.path.targetId as string, params.path.itemId as string)),
});

export const updateLibraryItem: ServiceHandler = ({ account, params, body, now }) => ({
  status: 200,
  json: libraryItemJson(update(account, params.path.targetId as string, params.path.itemId as string, body as LibraryItemUpdateInput, now)),
});

export const deleteLibraryItem: ServiceHandler = ({ account, params }) => {
  remove(account, params.path.targetId as string, params.path.itemId as string);
  return { status: 204 };
};
