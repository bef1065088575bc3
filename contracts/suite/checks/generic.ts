import type { Check } from '../check.js';
import { pathParameters, type OperationInfo } from '../../shared/openapi-model.js';
import type { Session } from '../session.js';
import { expectError, expectSuccess } from './expect.js';
import { pathValues, requiredQuery } from './path-values.js';

/**
 * Checks every read operation gets without a scenario of its own: a plain call with a key
 * that has its scope answers a documented success (and so is validated against openapi.yaml);
 * an unknown id is refused. Reads only: the suite never calls a write it has no scenario for.
 */
export function genericChecks(operations: readonly OperationInfo[], withScenario: ReadonlySet<string>): Check[] {
  const checks: Check[] = [];
  for (const op of operations) {
    if (op.method !== 'GET' || op.scope === null) continue;
    const level = op.inferred ? 'strict' : 'documented';
    const needsBuild = pathParameters(op).some((p) => p.name === 'buildId' || p.name === 'deliverableId');
    const groups = needsBuild ? (['spend', 'wait'] as const) : undefined;
    if (!withScenario.has(op.id)) {
      const title = `Authentication 2: a key with ${op.scope} gets a documented success from ${op.method} ${op.path} (${op.id})`;
      checks.push({
        id: `generic.success.${op.id}`,
        title,
        level,
        groups: groups ? [...groups] : undefined,
        covers: [op.id],
        generic: true,
        requests: 3,
        run: async (s) => expectSuccess(await s.client.op(op.id, await pathValues(s, op, 'existing'), { as: reader(s, op), query: requiredQuery(s, op) }), title),
      });
    }
    const last = pathParameters(op).at(-1);
    if (last?.schema.format === 'uuid') {
      checks.push({
        id: `generic.unknown-id.${op.id}`,
        title: op.inferred
          ? `openapi.yaml: an unknown ${last.name} gets 404 NOT_FOUND — ${op.method} ${op.path} (${op.id})`
          : `Errors: an unknown ${last.name} is refused with an error (openapi.yaml, strict: 404 NOT_FOUND) — ${op.method} ${op.path} (${op.id})`,
        level,
        groups: pathParameters(op).length > 1 && groups ? [...groups] : undefined,
        covers: [op.id],
        generic: true,
        requests: 3,
        run: async (s) => {
          const reply = await s.client.op(op.id, await pathValues(s, op, 'unknown-last'), { query: requiredQuery(s, op) });
          if (s.strict) expectError(reply, 404, 'NOT_FOUND', `openapi.yaml: an unknown ${last.name} gets 404 NOT_FOUND`);
          else expectError(reply, '4xx', undefined, `Errors: an unknown ${last.name} is refused with a 4xx error (the spec shows no code for missing resources)`);
        },
      });
    }
  }
  return checks;
}

/** A read uses the read-only key when there is one: svc:read is all it needs (Authentication 2). */
function reader(s: Session, op: OperationInfo) {
  return op.scope === 'svc:read' && s.keys.readOnly ? ('readOnly' as const) : ('readWrite' as const);
}
