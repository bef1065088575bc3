import { pathParameters, sampleValue, type OperationInfo, type ParameterInfo } from '../../shared/openapi-model.js';
import { SkipSignal } from '../../shared/outcomes.js';
import type { Session } from '../session.js';

export type PathMode = 'random' | 'existing' | 'unknown-last';

/**
 * Values for an operation's path parameters: random ones (where the answer must not depend
 * on them), ids of things that exist (made by the fixtures, or the first item of the list
 * one level up), or existing ones with an unknown last id (to provoke a 404).
 */
export async function pathValues(s: Session, op: OperationInfo, mode: PathMode): Promise<Record<string, string>> {
  const params = pathParameters(op);
  const values: Record<string, string> = {};
  for (const [i, param] of params.entries()) {
    const last = i === params.length - 1;
    if (mode === 'random' || (mode === 'unknown-last' && last)) values[param.name] = sampleValue(param.schema, () => s.uuid());
    else values[param.name] = await existingValue(s, op, param, values);
  }
  return values;
}

export function requiredQuery(s: Session, op: OperationInfo): Record<string, string> {
  const query: Record<string, string> = {};
  for (const p of op.parameters) if (p.in === 'query' && p.required) query[p.name] = sampleValue(p.schema, () => s.uuid());
  return query;
}

async function existingValue(s: Session, op: OperationInfo, param: ParameterInfo, known: Record<string, string>): Promise<string> {
  if (param.name === 'targetId') return (await s.fixtures.target()).id;
  if (param.name === 'buildId') return (await s.fixtures.blogBuild()).buildId;
  if (param.name === 'deliverableId') return (await s.fixtures.deliverable()).id;
  const listPath = op.path.slice(0, op.path.indexOf(`/{${param.name}}`));
  const list = s.operations.find((o) => o.method === 'GET' && o.path === listPath);
  if (!list) throw new SkipSignal(`no way to find an existing ${param.name}: openapi.yaml has no list at GET ${listPath}`);
  const reply = await s.client.call('GET', listPath.replace(/\{([^}]+)\}/g, (_, name: string) => known[name] ?? ''), {}, list);
  const first = Array.isArray(reply.json?.data) ? reply.json.data[0] : undefined;
  if (!first?.id) throw new SkipSignal(`no existing ${param.name}: ${list.id} lists none for this account`);
  return String(first.id);
}
