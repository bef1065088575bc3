import { assertRoomFor } from '../limits/quotas.js';
import type { Scope } from '../credentials/api-key.js';
import { toIso } from '../clock/clock.js';
import * as keys from '../keys/keys-service.js';
import type { ApiKeyRecord } from '../store/records.js';
import type { IssuedKey } from '../store/store.js';
import type { ServiceHandler } from './context.js';
import { pageJson } from './serialize.js';

// Every export of this module is a handler, registered by its operationId.

/** A key as it may be shown: its hint, never its value or hash. */
function apiKeyJson(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes,
    hint: k.hint,
    status: k.revokedAt === null ? 'active' : 'revoked',
    createdAt: toIso(k.createdAt),
    lastUsedAt: k.lastUsedAt === null ? null : toIso(k.lastUsedAt),
    revokedAt: k.revokedAt === null ? null : toIso(k.revokedAt),
    rotatedFromId: k.rotatedFromId,
    replacedById: k.replacedById,
  };
}

/** The one response that carries the key's value: its creation (or rotation). */
function issuedKeyReply(issued: IssuedKey) {
  return {
    status: 201,
    json: { ...apiKeyJson(issued.record), value: issued.value },
    headers: { location: `/api/v1/keys/${issued.record.id}` },
  };
}

export const listApiKeys: ServiceHandler = ({ account, params }) => {
  const { limit, cursor, status } = params.query as { limit: number; cursor?: string; status?: 'active' | 'revoked' };
  const keep = status ? (k: ApiKeyRecord) => (k.revokedAt === null) === (status === 'active') : undefined;
  const page = account.keys.page(limit, cursor, keep);
  return { status: 200, json: pageJson(page, apiKeyJson) };
};

export const getApiKey: ServiceHandler = ({ account, params }) => ({
  status: 200,
  json: apiKeyJson(keys.findApiKey(account, params.path.keyId as string)),
});

export const createApiKey: ServiceHandler = ({ sim, account, principal, body, now }) => {
  assertRoomFor(sim.quotas, account, 'keys');
  return issuedKeyReply(keys.createApiKey(sim.store, account, principal, body as { name: string; scopes: Scope[] }, now));
};

export const rotateApiKey: ServiceHandler = ({ sim, account, principal, params, now }) => {
  assertRoomFor(sim.quotas, account, 'keys');
  return issuedKeyReply(keys.rotateApiKey(sim.store, account, principal, params.path.keyId as string, now));
};

export const revokeApiKey: ServiceHandler = ({ sim, account, params, now }) => ({
  status: 200,
  json: apiKeyJson(keys.revokeApiKey(sim.store, account, params.path.keyId as string, now)),
});
