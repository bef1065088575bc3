import { createTarget as create, findTarget, type TargetCreateInput } from '../targets/targets-service.js';
import type { ServiceHandler } from './context.js';
import { targetJson } from './serialize.js';

export const createTarget: ServiceHandler = ({ account, body, now }) => {
  const target = create(account, body as TargetCreateInput, now);
  return { status: 201, json: targetJson(target), headers: { location: `/api/v1/targets/${target.id}` } };
};

export const listTargets: ServiceHandler = ({ account, params }) => {
  const { limit, cursor } = params.query as { limit: number; cursor?: string };
  const page = account.targets.page(limit, cursor);
  return { status: 200, json: { data: page.data.map(targetJson), nextCursor: page.nextCursor } };
};

export const getTarget: ServiceHandler = ({ account, params }) => ({
  status: 200,
  json: targetJson(findTarget(account, params.path.targetId as string)),
});
