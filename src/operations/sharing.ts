import { assertRoomFor } from '../limits/quotas.js';
import { createShare as create, openSharedDeliverable, pageShares, revokeShare as revoke } from '../sharing/shares-service.js';
import type { ControlHandler, ServiceHandler } from './context.js';
import { sharedDeliverableJson, shareJson, pageJson } from './serialize.js';

export const createShare: ServiceHandler = ({ sim, account, params, body, now }) => {
  const { expiresInSeconds } = (body ?? {}) as { expiresInSeconds?: number };
  assertRoomFor(sim.quotas, account, 'shares');
  const share = create(sim, account, params.path.deliverableId as string, expiresInSeconds, now);
  return { status: 201, json: shareJson(share) };
};

export const listShares: ServiceHandler = ({ sim, account, params, now }) => {
  const { limit, cursor } = params.query as { limit: number; cursor?: string };
  const page = pageShares(sim, account, params.path.deliverableId as string, limit, cursor, now);
  return { status: 200, json: pageJson(page, shareJson) };
};

export const revokeShare: ServiceHandler = ({ account, params, now }) => {
  revoke(account, params.path.shareId as string, now);
  return { status: 204 };
};

/** Public: the token is the only credential; the view carries nothing of the account. */
export const getSharedDeliverable: ControlHandler = ({ sim, params, now }) => {
  const view = openSharedDeliverable(sim, params.path.token as string, now);
  return { status: 200, json: sharedDeliverableJson(view.build, view.pageIndex, view.content) };
};
