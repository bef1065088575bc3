import type { Check, Group } from '../check.js';
import { readBalance } from '../fixtures.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { expectEqual } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectStatus } from './expect.js';
import { expectForeignRefused, WRITE_BODIES } from './isolation.js';
import { foreignTarget, ownedPathValues } from './owned-ids.js';

interface BodyReference {
  operationId: string;
  /** The body field that names another resource. */
  field: string;
  /** A valid body, given the value of the reference. */
  body: (s: Session, ref: string) => Record<string, unknown>;
  /** Whether the body is valid without the field (openapi.yaml: not required). */
  optional?: boolean;
  groups?: Group[];
}

/** Every write whose body names a target: tried with that reference missing, unknown and another account's. */
const BODY_REFERENCES: BodyReference[] = [
  {
    operationId: 'createBuild',
    field: 'targetId',
    body: (s, targetId) => ({ targetId, buildType: 'single', kind: 'blog', objective: `Refused build of ${s.config.runId}`, researchPolicy: 'required' }),
    groups: ['spend'],
  },
  { operationId: 'createChat', field: 'targetId', body: (s, targetId) => ({ targetId, title: `${s.config.runId} chat` }) },
  { operationId: 'suggestBrief', field: 'targetId', body: (_, targetId) => ({ targetId, prompt: 'A guide to cold brew' }) },
  { operationId: 'suggestTopics', field: 'targetId', body: (_, targetId) => ({ targetId, phrase: 'cold brew', count: 1 }), optional: true },
  { operationId: 'suggestQuotes', field: 'targetId', body: (_, targetId) => ({ targetId, speaker: 'Ada Example', topic: 'cold brew', mode: 'generate', count: 1 }), optional: true },
];

/**
 * Writes with a reference that does not resolve: in the body (missing, unknown, another
 * account's) and in the path (an unknown last id). None may succeed, none may be a 5xx, and a
 * refused build charges nothing.
 */
export function referenceChecks(operations: readonly OperationInfo[]): Check[] {
  const checks: Check[] = [];
  for (const ref of BODY_REFERENCES) {
    const op = operations.find((o) => o.id === ref.operationId);
    if (!op) continue;
    const where = `${op.method} ${op.path}`;
    const documented = !op.inferred;
    const rules = {
      unknown: documented
        ? `Errors: ${where} with an unknown ${ref.field} is refused and charges nothing (openapi.yaml, strict: 404 NOT_FOUND)`
        : `openapi.yaml: ${where} with an unknown ${ref.field} gets 404 NOT_FOUND`,
      foreign: documented
        ? `Errors: ${where} with another account's ${ref.field} is refused and charges nothing (openapi.yaml, strict: 404 NOT_FOUND)`
        : `openapi.yaml: ${where} with another account's ${ref.field} gets 404 NOT_FOUND`,
      missing: `openapi.yaml: ${where} without its required ${ref.field} gets 400 VALIDATION_ERROR`,
    };
    checks.push({
      id: `references.${op.id}.${ref.field}`,
      title: `${documented ? 'Errors' : 'openapi.yaml'}: ${where} with a ${ref.field} that is unknown, another account's${ref.optional ? '' : ' or missing'} is refused (strict: 404 NOT_FOUND, 400 VALIDATION_ERROR when missing)`,
      level: documented ? 'documented' : 'strict',
      roles: ['empty'],
      groups: ref.groups,
      covers: [op.id],
      requests: 8,
      run: async (s) => {
        const before = documented ? await readBalance(s) : undefined;
        const unknown = await s.client.op(op.id, {}, { body: ref.body(s, s.uuid()) });
        expectForeignRefused(s, unknown, rules.unknown);
        const foreign = await s.client.op(op.id, {}, { body: ref.body(s, (await foreignTarget(s)).id) });
        expectForeignRefused(s, foreign, rules.foreign);
        if (before) expectEqual((await readBalance(s)).balance, before.balance, `${rules.unknown}: the balance after both refusals`);
        if (!s.strict || ref.optional) return;
        const { [ref.field]: _, ...without } = ref.body(s, s.uuid());
        expectError(await s.client.op(op.id, {}, { body: without }), 400, 'VALIDATION_ERROR', rules.missing);
      },
    });
  }
  if (operations.some((o) => o.id === 'createBuild')) checks.push(libraryItemReferences());
  for (const op of operations) {
    const body = WRITE_BODIES[op.id];
    if (!body || op.method === 'GET') continue;
    const last = op.path.match(/\{([^}]+)\}(?:\/[^/{]*)?$/)?.[1];
    if (!last) continue;
    const rule = `openapi.yaml: ${op.method} ${op.path} on an unknown ${last} gets 404 NOT_FOUND — ${op.id}`;
    checks.push({
      id: `references.unknown-path.${op.id}`,
      title: rule,
      level: 'strict',
      covers: [op.id],
      requests: 4,
      run: async (s) => {
        const values = await ownedPathValues(s, op.path.replace(/\{[^}]+\}(\/[^/{]*)?$/, ''));
        values[last] = s.uuid();
        expectError(await s.client.op(op.id, values, { body: body(s) }), 404, 'NOT_FOUND', rule);
      },
    });
  }
  return checks;
}

const LIBRARY_ITEMS = 'openapi.yaml: a build whose libraryItemIds names an item that is not of its target (unknown, or another account\'s) gets 400 VALIDATION_ERROR naming body.libraryItemIds[i], and charges nothing';

/** A build naming library items that are not its target's: refused, naming the item. */
function libraryItemReferences(): Check {
  return {
    id: 'references.createBuild.libraryItemIds',
    title: LIBRARY_ITEMS,
    level: 'strict',
    roles: ['empty'],
    groups: ['spend'],
    covers: ['createBuild'],
    requests: 6,
    run: async (s) => {
      const target = await s.fixtures.target();
      const foreign = await foreignTarget(s);
      const item = await s.fixtures.shared('a library item of the second account', async () => {
        const body = { type: 'glossary_term', name: `${s.config.runId} foreign term`, content: 'Not yours.' };
        const reply = await s.client.op('createLibraryItem', { targetId: foreign.id }, { as: 'empty', body });
        expectStatus(reply, 201, 'openapi.yaml: the second account creates a library item on its own target');
        return String(reply.json.id);
      });
      const before = await readBalance(s);
      for (const [what, id] of [['an unknown item', s.uuid()], ['another account\'s item', item]] as const) {
        const body = { targetId: target.id, buildType: 'single', kind: 'blog', objective: `Refused build of ${s.config.runId}`, libraryItemIds: [id] };
        const reply = await s.client.op('createBuild', {}, { body });
        expectError(reply, 400, 'VALIDATION_ERROR', `${LIBRARY_ITEMS} (${what})`);
        expectEqual(reply.json.details?.fields?.[0]?.path, 'body.libraryItemIds[0]', `${LIBRARY_ITEMS} (${what}): the field named`);
      }
      expectEqual((await readBalance(s)).balance, before.balance, `${LIBRARY_ITEMS}: the balance after both refusals`);
    },
  };
}
