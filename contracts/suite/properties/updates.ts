import type { Check } from '../check.js';
import { expectSuccess } from '../checks/expect.js';
import { ownedPathValues } from '../checks/owned-ids.js';
import { ContractFailure } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { requestBodySchema, type Json } from './schema.js';

export const UNCHANGED = 'openapi.yaml: a PATCH that resends fields unchanged (every field the update schema takes, with the value the resource has) is accepted and changes none of them: its own slug is no conflict, a field resent is no edit';

/** The fields of a resource an update schema takes, with the values the resource has now. */
function resent(schema: Json, resource: Json): Json {
  return Object.fromEntries(Object.keys(schema.properties ?? {}).filter((k) => k in resource).map((k) => [k, resource[k]]));
}

interface Updated {
  op: string;
  read: string;
  path: (s: Session) => Promise<Record<string, string>>;
}

const UPDATES: Updated[] = [
  { op: 'updateTarget', read: 'getTarget', path: (s) => ownedPathValues(s, '/{targetId}') },
  { op: 'updateLibraryItem', read: 'getLibraryItem', path: (s) => ownedPathValues(s, '/{targetId}/{itemId}') },
];

async function resendUnchanged(s: Session, u: Updated): Promise<void> {
  const schema = requestBodySchema(u.op) ?? {};
  const path = await u.path(s);
  const before = await s.client.op(u.read, path);
  expectSuccess(before, `${UNCHANGED}: ${u.read}`);
  const body = resent(schema, before.json);
  // Each field alone, then all of them at once: a server that compares one field with itself as "taken" fails.
  for (const part of [...Object.keys(body).map((k) => ({ [k]: body[k] })), body]) {
    const reply = await s.client.op(u.op, path, { body: part });
    expectSuccess(reply, `${UNCHANGED}: ${u.op} with ${Object.keys(part).join(', ')} resent (${JSON.stringify(part).slice(0, 160)})`);
    const changed = Object.keys(body).filter((k) => JSON.stringify(reply.json?.[k]) !== JSON.stringify(before.json[k]));
    if (changed.length) throw new ContractFailure(`${UNCHANGED}: ${u.op} resending ${Object.keys(part).join(', ')} changed ${changed.join(', ')}: ${changed.map((k) => `${JSON.stringify(before.json[k]).slice(0, 60)} → ${JSON.stringify(reply.json?.[k]).slice(0, 60)}`).join('; ')}`);
  }
  const after = await s.client.op(u.read, path);
  expectSuccess(after, `${UNCHANGED}: ${u.read} after`);
  const changed = Object.keys(body).filter((k) => JSON.stringify(after.json?.[k]) !== JSON.stringify(before.json[k]));
  if (changed.length) throw new ContractFailure(`${UNCHANGED}: ${u.read} after the unchanged PATCHes shows ${changed.join(', ')} changed`);
}

export function updateChecks(): Check[] {
  return UPDATES.map((u) => ({
    id: `properties.unchanged.${u.op}`,
    title: `${UNCHANGED} — ${u.op}`,
    level: 'strict' as const,
    covers: [u.op],
    requests: 14,
    run: (s: Session) => resendUnchanged(s, u),
  }));
}
