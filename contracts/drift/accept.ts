import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { DRIFT_RULES, type Drift, type DriftRule } from './rules.js';

/**
 * A reviewed list of known differences (YAML or JSON), kept beside the recording:
 *
 *   accept:
 *     - rule: status              # a rule of the drift report (status, errorCode, fieldType, …)
 *       operationId: createTarget # optional: each property given must match
 *       field: ...                # optional
 *       recorded: 201             # optional
 *       replayed: 200             # optional
 *       reason: why this difference is accepted (required)
 */
export interface AcceptedDifference {
  rule: DriftRule;
  operationId?: string;
  field?: string;
  recorded?: unknown;
  replayed?: unknown;
  reason: string;
}

const MATCHED = ['operationId', 'field', 'recorded', 'replayed'] as const;

export function readAcceptFile(file: string): AcceptedDifference[] {
  let doc: any;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`the accept file ${file} cannot be read: ${(e as Error).message}`);
  }
  const list = doc?.accept;
  if (!Array.isArray(list)) throw new Error(`the accept file ${file} has no list under "accept"`);
  return list.map((item: any, i: number) => {
    const where = `${file}, accept[${i}]`;
    if (!item || typeof item !== 'object') throw new Error(`${where} is not an object`);
    if (!(item.rule in DRIFT_RULES)) throw new Error(`${where}: rule must be one of ${Object.keys(DRIFT_RULES).join(', ')}, not ${JSON.stringify(item.rule)}`);
    if (typeof item.reason !== 'string' || !item.reason.trim()) throw new Error(`${where}: a reason is required (the accept file is reviewed: say why)`);
    const unknown = Object.keys(item).filter((k) => !['rule', 'reason', ...MATCHED].includes(k));
    if (unknown.length) throw new Error(`${where}: unknown propert${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')}`);
    return item as AcceptedDifference;
  });
}

/** Marks the drifts an accept file lists (with its reason); answers the entries that matched nothing (stale). */
export function applyAccepted(drifts: Drift[], accepted: readonly AcceptedDifference[]): AcceptedDifference[] {
  const used = new Set<AcceptedDifference>();
  for (const d of drifts) {
    const match = accepted.find((a) => a.rule === d.rule && MATCHED.every((k) => a[k] === undefined || JSON.stringify(a[k]) === JSON.stringify(d[k])));
    if (match) {
      d.accepted = match.reason;
      used.add(match);
    }
  }
  return accepted.filter((a) => !used.has(a));
}
