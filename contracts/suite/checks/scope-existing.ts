import type { Check, Group } from '../check.js';
import type { Role } from '../config.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { expectEqual } from '../../shared/outcomes.js';
import { expectError } from './expect.js';
import { ownedPathValues } from './owned-ids.js';

/**
 * The scope rule on the path a random id never reaches: every operation with an id, called
 * with ids the account owns by a key of the account that lacks the scope (a server that
 * looks the resource up first and checks the scope only when it is missing passes the
 * random-id matrix and fails here), once per value of each required enumerated query
 * parameter. Deletions are left out unless the id is a throwaway (a key the run revoked):
 * a server that wrongly obeyed would destroy what the run still needs.
 */
export function scopeOnExistingChecks(operations: readonly OperationInfo[]): Check[] {
  const checks: Check[] = [];
  for (const op of operations) {
    const params = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    if (op.scope === null || params.length === 0 || params.includes('grantId')) continue;
    if (op.method === 'DELETE' && !params.includes('keyId')) continue;
    const lacking: Role = op.scope === 'svc:write' ? 'readOnly' : 'writeOnly';
    const title = `Authentication 5, Errors: a key without ${op.scope} gets 403 SCOPE_REQUIRED, also for ids the account owns`;
    const enumerated = op.parameters.filter((p) => p.in === 'query' && p.required && Array.isArray(p.schema.enum));
    const queries = enumerated.length ? (enumerated[0]!.schema.enum as string[]).map((v) => ({ [enumerated[0]!.name]: String(v) })) : [{}];
    const groups: Group[] | undefined = /\{(deliverableId|buildId|shareId|audioId)\}/.test(op.path) ? ['spend', 'wait'] : undefined;
    checks.push({
      id: `auth.scope-existing.${op.id}`,
      title: `${title} — ${op.method} ${op.path} (${op.id})`,
      level: op.inferred ? 'strict' : 'documented',
      roles: [lacking],
      groups,
      covers: [op.id],
      generic: true,
      requests: queries.length + 4,
      run: async (s) => {
        const values = await ownedPathValues(s, op.path);
        for (const query of queries) {
          const reply = await s.client.op(op.id, values, { as: lacking, query, body: op.hasBody ? {} : undefined });
          expectError(reply, 403, 'SCOPE_REQUIRED', `${title} (${op.id} ${new URLSearchParams(query)})`);
          if (s.strict) expectEqual(reply.json.details?.requiredScope, op.scope, 'openapi.yaml: SCOPE_REQUIRED names the missing scope in details.requiredScope');
        }
      },
    });
  }
  return checks;
}
