import type { Check, Group } from '../check.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { ContractFailure } from '../../shared/outcomes.js';
import { readRequestSchemas } from '../../shared/request-schema.js';
import type { Session } from '../session.js';
import { expectError } from './expect.js';
import { ownedPathValues } from './owned-ids.js';

interface ValidBody {
  body: (s: Session) => Record<string, unknown>;
  groups?: Group[];
  /** It would buy tokens if a server wrongly accepted it. */
  buys?: boolean;
}

/** A valid body for each creation whose schema has required fields: every field but one is sent. */
const VALID_BODIES: Readonly<Record<string, ValidBody>> = {
  createTarget: { body: (s) => ({ ...s.newTargetName('required'), description: 'Refused target', brandKit: { voice: 'plain', tone: 'calm' } }) },
  createBuild: { body: () => ({ targetId: '', buildType: 'single', kind: 'blog', objective: 'A refused build', researchPolicy: 'required' }), groups: ['spend'] },
  createLibraryItem: { body: () => ({ type: 'glossary_term', name: 'Refused term', content: 'Never stored.' }) },
  createImage: { body: () => ({ prompt: 'A refused image', size: '1024x1024' }), groups: ['spend'] },
  createChat: { body: () => ({ targetId: '', title: 'Refused chat' }) },
  postChatMessage: { body: () => ({ content: 'A refused message' }) },
  suggestBrief: { body: () => ({ prompt: 'A refused brief', targetId: '' }) },
  extractKeywords: { body: () => ({ text: 'Cold brew at home', max: 2 }) },
  suggestQuotes: { body: () => ({ speaker: 'Ada Example', topic: 'cold brew', mode: 'generate', count: 1 }) },
  createApiKey: { body: (s) => ({ name: `${s.config.runId} refused key`, scopes: ['svc:read'] }) },
  purchaseTokens: { body: () => ({ bundleId: 'starter' }), buys: true },
};

/**
 * Each required field of a creation omitted in turn, the rest valid: a server that treats a
 * required field as optional (or fills in a default) fails. The spec does not say which
 * fields are required, so these are strict checks.
 */
export function requiredFieldChecks(operations: readonly OperationInfo[]): Check[] {
  const required = readRequestSchemas().requiredFields;
  const checks: Check[] = [];
  for (const op of operations) {
    const valid = VALID_BODIES[op.id];
    const fields = required.get(op.id);
    if (!valid || !fields?.length) continue;
    const rule = (field: string) => `openapi.yaml: ${op.method} ${op.path} without its required ${field} gets 400 VALIDATION_ERROR naming body.${field}`;
    checks.push({
      id: `required.${op.id}`,
      title: `openapi.yaml: ${op.method} ${op.path} without any one of its required fields (${fields.join(', ')}) gets 400 VALIDATION_ERROR naming it (${op.id})`,
      level: 'strict',
      groups: valid.groups,
      buys: valid.buys,
      covers: [op.id],
      requests: fields.length + 3,
      run: async (s) => {
        const path = await ownedPathValues(s, op.path);
        const body = valid.body(s);
        for (const ref of ['targetId'] as const) if (body[ref] === '') body[ref] = (await s.fixtures.target()).id;
        for (const field of fields) {
          const { [field]: _, ...without } = body;
          const reply = await s.client.op(op.id, path, { body: without });
          // A key wrongly created is revoked at once: the run leaves no active key behind.
          if (op.id === 'createApiKey' && reply.status < 300 && reply.json?.id) await s.client.op('revokeApiKey', { keyId: String(reply.json.id) });
          expectError(reply, 400, 'VALIDATION_ERROR', rule(field));
          const named = JSON.stringify(reply.json?.details ?? {});
          if (!named.includes(field)) throw new ContractFailure(`${rule(field)}: the details do not name it: ${named.slice(0, 200)}`);
        }
      },
    });
  }
  return checks;
}
