import type { Check } from '../check.js';
import type { Reply } from '../http-client.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectStatus } from './expect.js';

const VALUE = /^svc_live_[0-9a-f]{40}$/;
const CREATE = 'openapi.yaml: POST /api/v1/keys answers 201 with the key\'s value once; the key works with the scopes asked, and GET and the list never show the value again';
const ROTATE = 'openapi.yaml: rotating a key answers a new value with the same name and scopes; the old value gets 401 INVALID_API_KEY at once, the new one works';
const REVOKE = 'openapi.yaml: a revoked key gets 401 INVALID_API_KEY at once; revoking again answers the same record, and the key is listed as revoked';
const NO_ESCALATION = 'openapi.yaml: a key cannot grant a scope it lacks: a write-only key asking for a key with svc:read gets 403 SCOPE_REQUIRED and creates nothing';
const ROTATE_NO_ESCALATION = 'openapi.yaml: rotating a key with a scope the calling key lacks is 403 SCOPE_REQUIRED: a write-only key rotating a read-only key is refused naming svc:read, and the key stays active, unreplaced and working';

interface NewKey {
  id: string;
  value: string;
  reply: Reply;
}

/** A read-only key named for this run (it cannot write, so a leaked one could do little). */
async function createKey(s: Session, label: string): Promise<NewKey> {
  const reply = await s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} ${label}`, scopes: ['svc:read'] } });
  expectStatus(reply, 201, CREATE);
  expectThat(VALUE.test(String(reply.json.value)), `${CREATE}: value is svc_live_ and 40 hex characters: got ${JSON.stringify(reply.json.value)}`);
  return { id: reply.json.id, value: reply.json.value, reply };
}

/** Revokes what a check created, whatever happened: the suite leaves no active key behind. */
async function revokeQuietly(s: Session, ids: string[]): Promise<void> {
  for (const id of ids) await s.client.op('revokeApiKey', { keyId: id }).catch(() => undefined);
}

function withKey(value: string) {
  return { authorization: `Bearer ${value}` };
}

/** The 40 hex characters that make a key secret: never in a response after its creation. */
function secretOf(value: string): string {
  return value.slice('svc_live_'.length);
}

/** API keys: create, read, rotate, revoke (inferred by openapi.yaml; the spec creates keys in the web app). */
export function keyChecks(): Check[] {
  return [
    {
      id: 'keys.create',
      title: CREATE,
      level: 'strict',
      covers: ['createApiKey', 'getApiKey', 'listApiKeys'],
      requests: 8,
      run: async (s) => {
        const key = await createKey(s, 'created');
        try {
          const body = key.reply.json;
          expectEqual([body.scopes, body.status, body.hint], [['svc:read'], 'active', `svc_live_…${key.value.slice(-4)}`], `${CREATE}: scopes, status and hint`);
          expectEqual(key.reply.headers.location, `/api/v1/keys/${key.id}`, `${CREATE}: Location`);
          expectStatus(await s.client.op('getTokenBalance', {}, withKey(key.value)), 200, `${CREATE}: the new key reads`);
          const write = await s.client.op('createTarget', {}, { ...withKey(key.value), body: s.newTargetName('new-key') });
          expectError(write, 403, 'SCOPE_REQUIRED', `${CREATE}: the new key has svc:read only, so a write`);
          const fetched = await s.client.op('getApiKey', { keyId: key.id });
          expectStatus(fetched, 200, `${CREATE}: GET of the key`);
          expectThat(!('value' in fetched.json) && !fetched.text.includes(secretOf(key.value)), `${CREATE}: GET shows the value again: ${fetched.text.slice(0, 240)}`);
          expectThat(typeof fetched.json.lastUsedAt === 'string', `${CREATE}: lastUsedAt is set once the key was used: got ${JSON.stringify(fetched.json.lastUsedAt)}`);
          const listed = await s.client.op('listApiKeys', {}, { query: { status: 'active', limit: '100' } });
          expectStatus(listed, 200, `${CREATE}: the list of keys`);
          expectThat(listed.json.data.some((k: { id: string }) => k.id === key.id), `${CREATE}: the new key is listed among the active keys`);
          expectThat(!listed.text.includes(secretOf(key.value)), `${CREATE}: the list shows the value again`);
        } finally {
          await revokeQuietly(s, [key.id]);
        }
      },
    },
    {
      id: 'keys.rotate',
      title: ROTATE,
      level: 'strict',
      covers: ['rotateApiKey', 'getApiKey'],
      requests: 7,
      run: async (s) => {
        const old = await createKey(s, 'rotated');
        const made = [old.id];
        try {
          expectStatus(await s.client.op('getTokenBalance', {}, withKey(old.value)), 200, `${ROTATE}: the key works before its rotation`);
          const reply = await s.client.op('rotateApiKey', { keyId: old.id });
          expectStatus(reply, 201, ROTATE);
          made.push(reply.json.id);
          const fresh = reply.json;
          expectThat(VALUE.test(String(fresh.value)) && fresh.value !== old.value, `${ROTATE}: a new value: got ${JSON.stringify(fresh.value)}`);
          expectEqual([fresh.name, fresh.scopes, fresh.rotatedFromId, fresh.status], [old.reply.json.name, old.reply.json.scopes, old.id, 'active'], `${ROTATE}: name, scopes, rotatedFromId, status`);
          expectError(await s.client.op('getTokenBalance', {}, withKey(old.value)), 401, 'INVALID_API_KEY', `${ROTATE}: the old value after the rotation`);
          expectStatus(await s.client.op('getTokenBalance', {}, withKey(fresh.value)), 200, `${ROTATE}: the new value`);
          const oldRecord = await s.client.op('getApiKey', { keyId: old.id });
          expectEqual([oldRecord.json.status, oldRecord.json.replacedById], ['revoked', fresh.id], `${ROTATE}: the old key is revoked and names its replacement`);
        } finally {
          await revokeQuietly(s, made);
        }
      },
    },
    {
      id: 'keys.revoke',
      title: REVOKE,
      level: 'strict',
      covers: ['revokeApiKey', 'listApiKeys'],
      requests: 7,
      run: async (s) => {
        const key = await createKey(s, 'revoked');
        try {
          const reply = await s.client.op('revokeApiKey', { keyId: key.id });
          expectStatus(reply, 200, REVOKE);
          expectEqual([reply.json.id, reply.json.status], [key.id, 'revoked'], `${REVOKE}: the record answered`);
          expectThat(typeof reply.json.revokedAt === 'string', `${REVOKE}: revokedAt is set: got ${JSON.stringify(reply.json.revokedAt)}`);
          expectError(await s.client.op('getTokenBalance', {}, withKey(key.value)), 401, 'INVALID_API_KEY', `${REVOKE}: the revoked key's next call`);
          await s.time.sleep(1000);
          const again = await s.client.op('revokeApiKey', { keyId: key.id });
          expectStatus(again, 200, `${REVOKE}: revoking again`);
          expectEqual(again.json, reply.json, `${REVOKE}: revoking again answers the same record`);
          const listed = await s.client.op('listApiKeys', {}, { query: { status: 'revoked', limit: '100' } });
          expectThat(listed.json.data.some((k: { id: string }) => k.id === key.id), `${REVOKE}: ?status=revoked lists the key`);
        } finally {
          await revokeQuietly(s, [key.id]);
        }
      },
    },
    {
      id: 'keys.no-escalation',
      title: NO_ESCALATION,
      level: 'strict',
      roles: ['writeOnly'],
      covers: ['createApiKey'],
      requests: 4,
      run: async (s) => {
        const count = async () => (await s.client.op('listApiKeys', {}, { query: { limit: '100' } })).json.data.length as number;
        const before = await count();
        const reply = await s.client.op('createApiKey', {}, { as: 'writeOnly', body: { name: `${s.config.runId} escalation`, scopes: ['svc:read'] } });
        if (reply.status === 201) await revokeQuietly(s, [reply.json.id]);
        expectError(reply, 403, 'SCOPE_REQUIRED', NO_ESCALATION);
        expectEqual(reply.json.details?.requiredScope, 'svc:read', `${NO_ESCALATION}: details.requiredScope`);
        expectEqual(await count(), before, `${NO_ESCALATION}: keys listed`);
      },
    },
    {
      id: 'keys.rotate-no-escalation',
      title: ROTATE_NO_ESCALATION,
      level: 'strict',
      roles: ['writeOnly'],
      covers: ['rotateApiKey'],
      requests: 5,
      run: async (s) => {
        // Rotation issues a key with the old one's scopes: a write-only key would hand itself a reader.
        const key = await createKey(s, 'not rotated by a write-only key');
        const made = [key.id];
        try {
          const reply = await s.client.op('rotateApiKey', { keyId: key.id }, { as: 'writeOnly' });
          if (reply.status === 201) made.push(reply.json.id);
          expectError(reply, 403, 'SCOPE_REQUIRED', ROTATE_NO_ESCALATION);
          expectEqual(reply.json.details?.requiredScope, 'svc:read', `${ROTATE_NO_ESCALATION}: details.requiredScope`);
          const kept = await s.client.op('getApiKey', { keyId: key.id });
          expectEqual([kept.json.status, kept.json.replacedById], ['active', null], `${ROTATE_NO_ESCALATION}: status and replacedById of the key after the refusal`);
          expectStatus(await s.client.op('getTokenBalance', {}, withKey(key.value)), 200, `${ROTATE_NO_ESCALATION}: the key still works`);
        } finally {
          await revokeQuietly(s, made);
        }
      },
    },
  ];
}
