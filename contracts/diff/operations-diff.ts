import { ChangeLog, type DiffResult } from './changes.js';
import { compareSchemas } from './schema-diff.js';
import { DocumentView, type Json } from './schema-view.js';

/**
 * Compares two versions of an OpenAPI document operation by operation: what was removed,
 * narrowed or made required breaks the clients of the old one; what was added is compatible.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Requests a minute per key for each rate-limit class (spec, Limits). */
export const RATE_CLASS_LIMITS: Readonly<Record<string, number>> = { default: 60, 'build-create': 10, generation: 20 };

interface OperationRef {
  label: string;
  pathItem: Json;
  op: Json;
}

export function diffDocuments(before: Json, after: Json): DiffResult {
  const log = new ChangeLog();
  const [oldView, newView] = [new DocumentView(before), new DocumentView(after)];
  const oldOps = operationsOf(before);
  const newOps = operationsOf(after);
  for (const [key, old] of oldOps) {
    const next = newOps.get(key);
    if (!next) {
      log.add('operation-removed', 'breaking', old.label, 'operation', `${old.op.operationId ?? old.label} was removed`);
      continue;
    }
    compareOperation(log, oldView, old, newView, next);
  }
  for (const [key, next] of newOps) {
    if (!oldOps.has(key)) log.add('operation-added', 'compatible', next.label, 'operation', `${next.op.operationId ?? next.label} was added`);
  }
  return log.result();
}

/** Operations keyed by method and path shape: `{id}` and `{buildId}` name the same route. */
function operationsOf(doc: Json): Map<string, OperationRef> {
  const map = new Map<string, OperationRef>();
  for (const [path, pathItem] of Object.entries((doc.paths ?? {}) as Json)) {
    for (const method of METHODS) {
      const op = (pathItem as Json)[method];
      if (!op) continue;
      const shape = path.replace(/\{[^}]+\}/g, '{}');
      map.set(`${method} ${shape}`, { label: `${method.toUpperCase()} ${path}`, pathItem: pathItem as Json, op });
    }
  }
  return map;
}

function compareOperation(log: ChangeLog, oldView: DocumentView, old: OperationRef, newView: DocumentView, next: OperationRef): void {
  const at = next.label;
  if (old.op.operationId !== next.op.operationId) {
    log.add('operation-id-changed', 'warning', at, 'operationId', `${old.op.operationId} became ${next.op.operationId}: generated clients rename the method`);
  }
  compareSecurity(log, old.op, next.op, at);
  compareRateLimit(log, old.op, next.op, at);
  compareParameters(log, oldView, old, newView, next, at);
  compareRequestBody(log, oldView, old.op.requestBody, newView, next.op.requestBody, at);
  compareResponses(log, oldView, old.op.responses ?? {}, newView, next.op.responses ?? {}, at);
}

function compareSecurity(log: ChangeLog, old: Json, next: Json, at: string): void {
  const isPublic = (op: Json) => Array.isArray(op.security) && op.security.length === 0;
  if (isPublic(old) && !isPublic(next)) log.add('authentication-required', 'breaking', at, 'security', 'anonymous calls are no longer allowed');
  const [o, n] = [old['x-required-scope'], next['x-required-scope']];
  if (o !== n && n !== undefined) log.add('scope-changed', 'breaking', at, 'x-required-scope', `scope ${o ?? 'none'} became ${n}`);
}

function compareRateLimit(log: ChangeLog, old: Json, next: Json, at: string): void {
  const limit = (op: Json): number | undefined =>
    typeof op['x-rate-limit'] === 'number' ? op['x-rate-limit'] : RATE_CLASS_LIMITS[op['x-rate-limit-class'] ?? 'default'];
  const [o, n] = [limit(old), limit(next)];
  if (o === undefined || n === undefined || o === n) return;
  if (n < o) log.add('rate-limit-tightened', 'breaking', at, 'rate limit', `${o} requests a minute became ${n}`);
  else log.add('rate-limit-loosened', 'compatible', at, 'rate limit', `${o} requests a minute became ${n}`);
}

function parametersOf(view: DocumentView, ref: OperationRef): Map<string, Json> {
  const map = new Map<string, Json>();
  let pathIndex = 0;
  for (const raw of [...(ref.pathItem.parameters ?? []), ...(ref.op.parameters ?? [])]) {
    const p = view.resolve(raw);
    // Path parameters match by position (a rename changes no URL); headers ignore case.
    const key = p.in === 'path' ? `path #${pathIndex++}` : `${p.in} ${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`;
    map.set(key, p);
  }
  return map;
}

function compareParameters(log: ChangeLog, oldView: DocumentView, old: OperationRef, newView: DocumentView, next: OperationRef, at: string): void {
  const [oldParams, newParams] = [parametersOf(oldView, old), parametersOf(newView, next)];
  for (const [key, p] of oldParams) {
    const where = `${p.in} parameter ${p.name}`;
    const n = newParams.get(key);
    if (!n) {
      log.add('parameter-removed', 'breaking', at, where, 'the parameter was removed');
      continue;
    }
    if (p.required !== true && n.required === true) log.add('parameter-became-required', 'breaking', at, where, 'optional before, required now');
    compareSchemas(log, at, where, 'request', { view: oldView, node: p.schema ?? {} }, { view: newView, node: n.schema ?? {} });
  }
  for (const [key, n] of newParams) {
    if (oldParams.has(key)) continue;
    const where = `${n.in} parameter ${n.name}`;
    if (n.required === true) log.add('new-required-parameter', 'breaking', at, where, 'a new required parameter');
    else log.add('parameter-added', 'compatible', at, where, 'a new optional parameter');
  }
}

function compareRequestBody(log: ChangeLog, oldView: DocumentView, rawOld: unknown, newView: DocumentView, rawNew: unknown, at: string): void {
  const old = rawOld ? oldView.resolve(rawOld) : undefined;
  const next = rawNew ? newView.resolve(rawNew) : undefined;
  if (!old && !next) return;
  if (!next) return log.add('request-body-removed', 'warning', at, 'request body', 'the body is no longer documented');
  if (!old) {
    if (next.required === true) log.add('request-body-required', 'breaking', at, 'request body', 'a body is now required');
    else log.add('request-body-added', 'compatible', at, 'request body', 'an optional body was added');
    return;
  }
  if (old.required !== true && next.required === true) log.add('request-body-required', 'breaking', at, 'request body', 'optional before, required now');
  for (const [type, media] of Object.entries((old.content ?? {}) as Json)) {
    const counterpart = next.content?.[type];
    if (!counterpart) {
      log.add('request-media-type-removed', 'breaking', at, `request body ${type}`, `${type} is no longer accepted`);
      continue;
    }
    compareSchemas(log, at, `request body ${type}`, 'request', { view: oldView, node: media.schema ?? {} }, { view: newView, node: counterpart.schema ?? {} });
  }
}

function compareResponses(log: ChangeLog, oldView: DocumentView, old: Json, newView: DocumentView, next: Json, at: string): void {
  for (const [status, rawOld] of Object.entries(old)) {
    const rawNew = next[status];
    const success = status.startsWith('2');
    if (!rawNew) {
      log.add('response-status-removed', success ? 'breaking' : 'warning', at, `response ${status}`, `status ${status} is no longer sent`);
      continue;
    }
    const [o, n] = [oldView.resolve(rawOld), newView.resolve(rawNew)];
    compareHeaders(log, oldView, o.headers ?? {}, newView, n.headers ?? {}, at, status);
    for (const [type, media] of Object.entries((o.content ?? {}) as Json)) {
      const counterpart = n.content?.[type];
      if (!counterpart) {
        log.add('response-media-type-removed', 'breaking', at, `response ${status} ${type}`, `${type} is no longer sent`);
        continue;
      }
      compareSchemas(log, at, `response ${status} ${type}`, 'response', { view: oldView, node: media.schema ?? {} }, { view: newView, node: counterpart.schema ?? {} });
    }
  }
  for (const status of Object.keys(next)) {
    if (!(status in old)) log.add('response-status-added', status.startsWith('2') ? 'warning' : 'compatible', at, `response ${status}`, `status ${status} may now be sent`);
  }
}

function compareHeaders(log: ChangeLog, oldView: DocumentView, old: Json, newView: DocumentView, next: Json, at: string, status: string): void {
  const lower = (headers: Json) => new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const newHeaders = lower(next);
  for (const [name, rawOld] of lower(old)) {
    const where = `response ${status} header ${name}`;
    const rawNew = newHeaders.get(name);
    if (!rawNew) {
      log.add('response-header-removed', 'breaking', at, where, 'the header is no longer sent');
      continue;
    }
    const [o, n] = [oldView.resolve(rawOld), newView.resolve(rawNew)];
    if (o.required === true && n.required !== true) log.add('response-header-became-optional', 'breaking', at, where, 'always sent before, optional now');
    compareSchemas(log, at, where, 'response', { view: oldView, node: o.schema ?? {} }, { view: newView, node: n.schema ?? {} });
  }
}
