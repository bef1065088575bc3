import type { Check } from '../check.js';
import type { Role } from '../config.js';
import type { ContractLevel } from '../../shared/contract-validator.js';
import type { CallOptions } from '../http-client.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { ContractFailure, expectEqual } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError } from './expect.js';
import { pathValues, requiredQuery } from './path-values.js';

const MALFORMED_KEY = 'svc_live_not-a-valid-key';

/**
 * The 401/403 matrix for every operation of openapi.yaml, read at run time: no key, a key that
 * is not Bearer, a malformed key, a revoked key, a key without the operation's scope. Path
 * ids are random: the answer must not depend on them, and a wrongly accepted write then
 * touches nothing. A write carries an empty JSON object, never a body that could do something.
 */
export function authMatrixChecks(operations: readonly OperationInfo[]): Check[] {
  const checks: Check[] = [];
  for (const op of operations) {
    const level: ContractLevel = op.inferred ? 'strict' : 'documented';
    const base = { level, covers: [op.id], generic: true, requests: 1 };
    if (op.scope === null) {
      checks.push({
        ...base,
        id: `auth.public.${op.id}`,
        title: `openapi.yaml: ${op.id} is public (security: []): without a key it is never 401 or 403`,
        run: async (s) => {
          const reply = await call(s, op, { as: null });
          if (reply.status === 401 || reply.status === 403) throw new ContractFailure(`openapi.yaml: ${op.id} needs no key, yet answered ${reply.status} ${reply.text.slice(0, 200)}`);
        },
      });
      continue;
    }
    const unauthorized = (id: string, title: string, options: CallOptions, code: string, roles: Role[] = [], strict = false): Check => ({
      ...base,
      ...(strict ? { level: 'strict' as const } : {}),
      id: `auth.${id}.${op.id}`,
      title: `${title} — ${op.method} ${op.path} (${op.id})`,
      roles,
      run: async (s) => expectError(await call(s, op, options), 401, code, title),
    });
    checks.push(
      unauthorized('no-key', 'Authentication 4, Errors: a request without a key gets 401 UNAUTHORIZED', { as: null }, 'UNAUTHORIZED'),
      unauthorized('not-bearer', 'openapi.yaml: an Authorization header that is not Bearer gets 401 UNAUTHORIZED', { authorization: 'Basic Y29udHJhY3Q6Y2hlY2s=' }, 'UNAUTHORIZED', [], true),
      unauthorized('malformed', 'Authentication 4, Errors: a malformed key gets 401 INVALID_API_KEY', { authorization: `Bearer ${MALFORMED_KEY}` }, 'INVALID_API_KEY'),
      unauthorized('revoked', 'Authentication 4, Errors: a revoked key gets 401 INVALID_API_KEY', { as: 'revoked' }, 'INVALID_API_KEY', ['revoked']),
    );
    const lacking: Role = op.scope === 'svc:write' ? 'readOnly' : 'writeOnly';
    const title = `Authentication 5, Errors: a key without ${op.scope} gets 403 SCOPE_REQUIRED`;
    checks.push({
      ...base,
      id: `auth.scope.${op.id}`,
      title: `${title} — ${op.method} ${op.path} (${op.id})`,
      roles: [lacking],
      run: async (s) => {
        const reply = await call(s, op, { as: lacking });
        expectError(reply, 403, 'SCOPE_REQUIRED', title);
        if (s.strict) expectEqual(reply.json.details?.requiredScope, op.scope, `openapi.yaml: SCOPE_REQUIRED names the missing scope in details.requiredScope`);
      },
    });
  }
  return checks;
}

async function call(s: Session, op: OperationInfo, options: CallOptions) {
  const values = await pathValues(s, op, 'random');
  const body = op.hasBody ? {} : undefined;
  return s.client.op(op.id, values, { ...options, query: requiredQuery(s, op), body });
}
