import type { Check } from '../check.js';
import { expectEqual } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectStatus } from './expect.js';

const CAP = 'openapi.yaml: at most 25 active keys per account: a key beyond them is 409 CONFLICT and creates nothing; once one is revoked there is room again';
const MAX_ACTIVE_KEYS = 25;

async function activeKeyIds(s: Session): Promise<string[]> {
  const listed = await s.client.op('listApiKeys', {}, { query: { status: 'active', limit: '100' } });
  expectStatus(listed, 200, `${CAP}: GET /api/v1/keys?status=active`);
  return (listed.json.data as Array<{ id: string }>).map((k) => k.id);
}

/** The cap on active keys (inferred by openapi.yaml), filled and freed again; the keys it made are revoked after. */
export function keyCapChecks(): Check[] {
  return [
    {
      id: 'keys.active-cap',
      title: CAP,
      level: 'strict',
      simulator: 'fills the account with 25 active keys',
      covers: ['createApiKey', 'listApiKeys', 'revokeApiKey'],
      requests: 60,
      run: async (s) => {
        const made: string[] = [];
        const create = (label: string) => s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} cap ${label}`, scopes: ['svc:read'] } });
        try {
          const before = await activeKeyIds(s);
          for (let n = before.length; n < MAX_ACTIVE_KEYS; n++) {
            const reply = await create(String(n));
            expectStatus(reply, 201, `${CAP}: key ${n + 1} of ${MAX_ACTIVE_KEYS}`);
            made.push(reply.json.id);
          }
          expectError(await create('beyond'), 409, 'CONFLICT', CAP);
          expectEqual((await activeKeyIds(s)).length, MAX_ACTIVE_KEYS, `${CAP}: the active keys after the refusal`);
          // The account's own keys are not this run's to revoke: with none made, the second half cannot run.
          const freed = made.pop();
          if (!freed) return s.skipBecause(`the account already held ${MAX_ACTIVE_KEYS} active keys (the refusal beyond them was checked): none of this run's to revoke`);
          expectStatus(await s.client.op('revokeApiKey', { keyId: freed }), 200, `${CAP}: revoking one`);
          const again = await create('after-revoke');
          expectStatus(again, 201, `${CAP}: a key after one was revoked`);
          made.push(again.json.id);
        } finally {
          for (const id of made) await s.client.op('revokeApiKey', { keyId: id }).catch(() => undefined);
        }
      },
    },
  ];
}
