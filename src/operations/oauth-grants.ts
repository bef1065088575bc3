import type { ServiceHandler } from './context.js';

// Every export of this module is a handler, registered by its operationId.

export const listOAuthGrants: ServiceHandler = ({ sim, account, now }) => ({
  status: 200,
  json: { data: sim.oauth.listGrants(account.id, now), nextCursor: null },
});

export const revokeOAuthGrant: ServiceHandler = ({ sim, account, params, now }) => ({
  status: 200,
  json: sim.oauth.revokeGrant(account.id, params.path.grantId as string, now),
});
