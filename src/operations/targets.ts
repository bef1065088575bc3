import { assertRoomFor } from '../limits/quotas.js';
import {
  createTarget as create,
  deleteTarget as remove,
  findTarget,
  updateTarget as update,
  type TargetCreateInput,
  type TargetUpdateInput,
} from '../targets/targets-service.js';
import type { ServiceHandler } from './context.js';
import { targetJson, pageJson } from './serialize.js';

export const createTarget: ServiceHandler = ({ sim, account, body, now }) => {
  assertRoomFor(sim.quotas, account, 'targets');
  const target = create(account, body as TargetCreateInput, now);
  return { status: 201, json: targetJson(target), headers: { location: `/api/v1/targets/${target.id}` } };
};

export const listTargets: ServiceHandler = ({ account, params }) => {
  const { limit, cursor } = params.query as { limit: number; cursor?: string };
  const page = account.targets.page(limit, cursor);
  return { status: 200, json: pageJson(page, targetJson) };
};

export const getTarget: ServiceHandler = ({ account, params }) => ({
  status: 200,
  json: targetJson(findTarget(account, params.path.targetId as string)),
});

export const updateTarget: ServiceHandler = ({ account, params, body, now }) => ({
  status: 200,
  json: targetJson(update(account, params.path.targetId as string, body as TargetUpdateInput, now)),
});

export const deleteTarget: ServiceHandler = ({ account, params }) => {
  remove(account, params.path.targetId as string);
  return { status: 204 };
};
