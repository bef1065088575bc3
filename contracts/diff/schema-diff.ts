import type { ChangeLog } from './changes.js';
import { admits, DocumentView, enumValues, typesOf, variantsOf, type Json } from './schema-view.js';

/**
 * Compares two schemas for the clients of the old one. In a request the new schema must accept
 * everything the old one accepted (narrowing breaks senders); in a response it must send
 * nothing the old one did not promise (widening, or taking away, breaks readers).
 */
export type Direction = 'request' | 'response';

export interface SchemaSide {
  view: DocumentView;
  node: unknown;
}

interface Walk {
  log: ChangeLog;
  operation: string;
  direction: Direction;
  /** Pairs of nodes already compared: recursive schemas end here. */
  seen: Set<string>;
}

const MAXIMA = ['maxLength', 'maxItems', 'maxProperties', 'maximum', 'exclusiveMaximum'] as const;
const MINIMA = ['minLength', 'minItems', 'minProperties', 'minimum', 'exclusiveMinimum'] as const;

export function compareSchemas(log: ChangeLog, operation: string, location: string, direction: Direction, before: SchemaSide, after: SchemaSide): void {
  walk({ log, operation, direction, seen: new Set() }, location, before, after);
}

function walk(w: Walk, at: string, before: SchemaSide, after: SchemaSide): void {
  const pairKey = `${refOf(before.node)}|${refOf(after.node)}|${at.split(' ')[0]}`;
  if (refOf(before.node) && refOf(after.node)) {
    if (w.seen.has(pairKey)) return;
    w.seen.add(pairKey);
  }
  const old = before.view.schema(before.node);
  const next = after.view.schema(after.node);
  if (isUnion(old) || isUnion(next)) return compareVariants(w, at, { ...before, node: old }, { ...after, node: next });
  compareTypes(w, at, old, next);
  compareEnums(w, at, old, next);
  compareFormats(w, at, old, next);
  compareBounds(w, at, old, next);
  if (admits(typesOf(old), 'object') && admits(typesOf(next), 'object')) compareObjects(w, at, before.view, old, after.view, next);
  if (old.items && next.items) walk(w, `${at}[]`, { view: before.view, node: old.items }, { view: after.view, node: next.items });
}

function compareTypes(w: Walk, at: string, old: Json, next: Json): void {
  const [oldTypes, newTypes] = [typesOf(old), typesOf(next)];
  // In a request, every type the old schema accepted must still be accepted; in a response,
  // every type the new schema may send must have been promised before.
  const [from, to] = w.direction === 'request' ? [oldTypes, newTypes] : [newTypes, oldTypes];
  const lost = [...from].filter((t) => t !== 'any' && !admits(to, t));
  if (from.has('any') && !to.has('any')) lost.push('any');
  if (lost.length) {
    const rule = w.direction === 'request' ? 'request-type-narrowed' : 'response-type-widened';
    w.log.add(rule, 'breaking', w.operation, at, `type ${fmt(oldTypes)} became ${fmt(newTypes)}`);
  } else if (fmt(oldTypes) !== fmt(newTypes)) {
    w.log.add(`${w.direction}-type-changed`, 'compatible', w.operation, at, `type ${fmt(oldTypes)} became ${fmt(newTypes)}`);
  }
}

function compareEnums(w: Walk, at: string, old: Json, next: Json): void {
  const [oldValues, newValues] = [enumValues(old), enumValues(next)];
  if (!oldValues && !newValues) return;
  const has = (values: unknown[] | undefined, v: unknown) => !values || values.some((x) => JSON.stringify(x) === JSON.stringify(v));
  const removed = oldValues ? oldValues.filter((v) => !has(newValues, v)) : [];
  const added = newValues ? newValues.filter((v) => !has(oldValues, v)) : [];
  if (!oldValues && newValues) {
    const rule = w.direction === 'request' ? 'request-enum-added' : 'response-enum-added';
    return w.log.add(rule, w.direction === 'request' ? 'breaking' : 'compatible', w.operation, at, `now limited to ${list(newValues)}`);
  }
  if (removed.length) {
    const severity = w.direction === 'request' ? 'breaking' : 'compatible';
    w.log.add(`${w.direction}-enum-value-removed`, severity, w.operation, at, `${list(removed)} no longer allowed`);
  }
  if (added.length) {
    // A reader with an exhaustive switch meets a value it never saw: worth a warning.
    const severity = w.direction === 'request' ? 'compatible' : 'warning';
    w.log.add(`${w.direction}-enum-value-added`, severity, w.operation, at, `${list(added)} added`);
  }
}

function compareFormats(w: Walk, at: string, old: Json, next: Json): void {
  if (old.format === next.format) return;
  if (old.format && next.format) {
    return w.log.add(`${w.direction}-format-changed`, 'breaking', w.operation, at, `format ${old.format} became ${next.format}`);
  }
  if (next.format) {
    const severity = w.direction === 'request' ? 'breaking' : 'compatible';
    return w.log.add(`${w.direction}-format-added`, severity, w.operation, at, `format ${next.format} now required`);
  }
  const severity = w.direction === 'request' ? 'compatible' : 'warning';
  w.log.add(`${w.direction}-format-removed`, severity, w.operation, at, `format ${old.format} no longer promised`);
}

function compareBounds(w: Walk, at: string, old: Json, next: Json): void {
  const tightened = (o: unknown, n: unknown, isMax: boolean) => {
    if (typeof n !== 'number') return false;
    if (typeof o !== 'number') return true;
    return isMax ? n < o : n > o;
  };
  for (const [names, isMax] of [
    [MAXIMA, true],
    [MINIMA, false],
  ] as const) {
    for (const name of names) {
      const [o, n] = [old[name], next[name]];
      if (o === n) continue;
      const narrower = tightened(o, n, isMax);
      const severity = w.direction === 'request' ? (narrower ? 'breaking' : 'compatible') : narrower ? 'compatible' : 'warning';
      w.log.add(`${w.direction}-${name}-${narrower ? 'tightened' : 'loosened'}`, severity, w.operation, at, `${name} ${o ?? 'none'} became ${n ?? 'none'}`);
    }
  }
  for (const name of ['pattern', 'multipleOf'] as const) {
    if (old[name] === next[name]) continue;
    const severity = w.direction === 'request' ? (next[name] === undefined ? 'compatible' : 'breaking') : 'warning';
    w.log.add(`${w.direction}-${name}-changed`, severity, w.operation, at, `${name} ${old[name] ?? 'none'} became ${next[name] ?? 'none'}`);
  }
}

function compareObjects(w: Walk, at: string, oldView: DocumentView, old: Json, newView: DocumentView, next: Json): void {
  const oldProps: Json = old.properties ?? {};
  const newProps: Json = next.properties ?? {};
  const oldRequired = new Set<string>(old.required ?? []);
  const newRequired = new Set<string>(next.required ?? []);
  const closed = next.additionalProperties === false || next.unevaluatedProperties === false;
  for (const name of Object.keys(oldProps)) {
    const where = `${at}.${name}`;
    if (!(name in newProps)) {
      if (w.direction === 'response') w.log.add('response-property-removed', 'breaking', w.operation, where, 'no longer sent');
      else w.log.add('request-property-removed', closed ? 'breaking' : 'warning', w.operation, where, closed ? 'now refused' : 'no longer documented');
      continue;
    }
    if (w.direction === 'request' && !oldRequired.has(name) && newRequired.has(name)) {
      w.log.add('request-property-became-required', 'breaking', w.operation, where, 'optional before, required now');
    }
    if (w.direction === 'response' && oldRequired.has(name) && !newRequired.has(name)) {
      w.log.add('response-property-became-optional', 'breaking', w.operation, where, 'always sent before, optional now');
    }
    walk(w, where, { view: oldView, node: oldProps[name] }, { view: newView, node: newProps[name] });
  }
  for (const name of Object.keys(newProps)) {
    if (name in oldProps) continue;
    const where = `${at}.${name}`;
    if (w.direction === 'request' && newRequired.has(name)) w.log.add('new-required-request-property', 'breaking', w.operation, where, 'a new required field');
    else w.log.add(`${w.direction}-property-added`, 'compatible', w.operation, where, 'a new optional field');
  }
  const wasClosed = old.additionalProperties === false || old.unevaluatedProperties === false;
  if (w.direction === 'request' && closed && !wasClosed) {
    w.log.add('request-additional-properties-refused', 'breaking', w.operation, at, 'fields beyond the listed ones are now refused');
  }
}

/** Unions: branches are matched by their reference, their discriminator value, or position. */
function compareVariants(w: Walk, at: string, before: SchemaSide, after: SchemaSide): void {
  const oldBranches = branchMap(before, before.view.schema(before.node));
  const newBranches = branchMap(after, after.view.schema(after.node));
  for (const [key, branch] of oldBranches) {
    const counterpart = newBranches.get(key) ?? (newBranches.size === 1 && oldBranches.size === 1 ? [...newBranches.values()][0] : undefined);
    if (!counterpart) {
      const severity = w.direction === 'request' ? 'breaking' : 'compatible';
      w.log.add(`${w.direction}-variant-removed`, severity, w.operation, at, `variant ${key} removed`);
      continue;
    }
    walk(w, `${at}<${key}>`, { view: before.view, node: branch }, { view: after.view, node: counterpart });
  }
  for (const key of newBranches.keys()) {
    if (oldBranches.has(key) || (newBranches.size === 1 && oldBranches.size === 1)) continue;
    const severity = w.direction === 'request' ? 'compatible' : 'warning';
    w.log.add(`${w.direction}-variant-added`, severity, w.operation, at, `variant ${key} added`);
  }
}

function branchMap(side: SchemaSide, schema: Json): Map<string, unknown> {
  const discriminator: string | undefined = schema.discriminator?.propertyName;
  const map = new Map<string, unknown>();
  variantsOf(schema).forEach((branch, index) => {
    map.set(branchKey(side.view, branch, discriminator) ?? `#${index + 1}`, branch);
  });
  return map;
}

function branchKey(view: DocumentView, branch: unknown, discriminator: string | undefined): string | undefined {
  const resolved = view.schema(branch);
  const property = discriminator ?? Object.keys(resolved.properties ?? {}).find((p) => enumValues(view.schema(resolved.properties[p]))?.length === 1);
  if (property && resolved.properties?.[property]) {
    const values = enumValues(view.schema(resolved.properties[property]));
    if (values?.length === 1) return `${property}=${String(values[0])}`;
  }
  const ref = refOf(branch);
  if (ref) return ref.split('/').pop();
  if (typeof resolved.title === 'string') return resolved.title;
  return undefined;
}

function isUnion(schema: Json): boolean {
  return Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf);
}

function refOf(node: unknown): string {
  return node && typeof node === 'object' && typeof (node as Json).$ref === 'string' ? (node as Json).$ref : '';
}

function fmt(types: Set<string>): string {
  return [...types].sort().join('|');
}

function list(values: unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}
