import type { Check } from '../check.js';
import type { Role } from '../config.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { expectError, expectStatus } from './expect.js';

const EVERY_KEY = 'Authentication 3, openapi.yaml: every key of the account is listed with its own scopes and status (revoked ones as revoked), and never with its value';
const ROTATE_REVOKED = 'openapi.yaml: rotating a revoked key, or a key already rotated out, is 409 CONFLICT and makes no key';

const SCOPES_OF: Partial<Record<Role, string[]>> = { readWrite: ['svc:read', 'svc:write'], readOnly: ['svc:read'], writeOnly: ['svc:write'] };

/** Keys one by one, not one for all: each key's own record, and rotation in the states it is refused. */
export function everyKeyChecks(): Check[] {
  return [
    {
      id: 'keys.every-key',
      title: EVERY_KEY,
      level: 'strict',
      roles: ['readOnly', 'writeOnly', 'revoked'],
      covers: ['listApiKeys'],
      requests: 2,
      run: async (s) => {
        const listed = await s.client.op('listApiKeys', {}, { query: { limit: '100' } });
        expectStatus(listed, 200, EVERY_KEY);
        const keys = listed.json.data as Array<{ hint: string; scopes: string[]; status: string }>;
        for (const role of ['readWrite', 'readOnly', 'writeOnly', 'revoked'] as const) {
          const value = s.keys[role] as string;
          expectThat(!listed.text.includes(value.slice('svc_live_'.length)), `${EVERY_KEY}: the list shows the value of the ${role} key`);
          const mine = keys.filter((k) => k.hint === `svc_live_…${value.slice(-4)}`);
          expectThat(mine.length > 0, `${EVERY_KEY}: no key with the hint of the ${role} key is listed`);
          const expected = role === 'revoked' ? ['revoked'] : ['active', SCOPES_OF[role]];
          const seen = mine.map((k) => (role === 'revoked' ? [k.status] : [k.status, [...k.scopes].sort()]));
          expectThat(seen.some((x) => JSON.stringify(x) === JSON.stringify(expected)), `${EVERY_KEY}: the ${role} key is listed as ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
        }
      },
    },
    {
      id: 'keys.rotate-revoked',
      title: ROTATE_REVOKED,
      level: 'strict',
      covers: ['rotateApiKey'],
      requests: 9,
      run: async (s) => {
        const made: string[] = [];
        const create = async (label: string) => {
          const reply = await s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} ${label}`, scopes: ['svc:read'] } });
          expectStatus(reply, 201, ROTATE_REVOKED);
          made.push(reply.json.id);
          return reply.json as { id: string };
        };
        const count = async () => (await s.client.op('listApiKeys', {}, { query: { limit: '100', status: 'active' } })).json.data.length as number;
        try {
          const revoked = await create('rotate-revoked');
          expectStatus(await s.client.op('revokeApiKey', { keyId: revoked.id }), 200, `${ROTATE_REVOKED}: the revocation`);
          const active = await count();
          expectError(await s.client.op('rotateApiKey', { keyId: revoked.id }), 409, 'CONFLICT', `${ROTATE_REVOKED}: rotating the revoked key`);
          const rotated = await create('rotate-twice');
          const first = await s.client.op('rotateApiKey', { keyId: rotated.id });
          expectStatus(first, 201, `${ROTATE_REVOKED}: the first rotation`);
          made.push(first.json.id);
          const again = await s.client.op('rotateApiKey', { keyId: rotated.id });
          if (again.status === 201) made.push(again.json.id);
          expectError(again, 409, 'CONFLICT', `${ROTATE_REVOKED}: rotating the key already rotated out`);
          expectEqual(await count(), active + 1, `${ROTATE_REVOKED}: active keys (one rotated key replaced by its successor)`);
        } finally {
          for (const id of made) await s.client.op('revokeApiKey', { keyId: id }).catch(() => undefined);
        }
      },
    },
  ];
}
