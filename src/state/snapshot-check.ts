import type { z } from 'zod';
import { validationError } from '../errors/api-error.js';
import type { Steps } from './steps.js';

/**
 * A snapshot checked against its schema a record at a time: each object is checked with its
 * long lists emptied, then each item of those lists on its own, with a step between items, so
 * no single check grows with the snapshot. The result is what the schema would make of the
 * whole (defaults filled in, unknown fields dropped); a fault throws 400 with the paths of the
 * first problems in the piece that has them.
 */
export type Plan = { items: Plan | null } | { fields: Record<string, Plan> };

const MAX_PROBLEMS = 10;
/** Items checked between two steps. */
const ITEMS_PER_STEP = 32;

export const each = (items: Plan | null = null): Plan => ({ items });
export const fields = (map: Record<string, Plan>): Plan => ({ fields: map });

export function* checkInSteps(schema: z.ZodType, value: unknown, plan: Plan, path: PropertyKey[] = []): Steps<unknown> {
  const inner = unwrapped(schema);
  if ('items' in plan) {
    if (!Array.isArray(value) || inner.type !== 'array' || hasChecks(inner)) return whole(schema, value, path);
    const element = (inner as z.ZodArray).element as z.ZodType;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      out.push(plan.items ? yield* checkInSteps(element, value[i], plan.items, [...path, i]) : whole(element, value[i], [...path, i]));
      if (i % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
    }
    return out;
  }
  if (!isRecord(value) || inner.type !== 'object' || hasChecks(inner)) return whole(schema, value, path);
  const { shape } = inner as z.ZodObject;
  const shallow: Record<string, unknown> = { ...value };
  const later: string[] = [];
  for (const [key, sub] of Object.entries(plan.fields)) {
    if (value[key] === undefined || !(key in shape)) continue;
    shallow[key] = emptied(value[key], sub);
    later.push(key);
  }
  const out = whole(schema, shallow, path) as Record<string, unknown>;
  yield;
  for (const key of later) out[key] = yield* checkInSteps(shape[key] as z.ZodType, value[key], plan.fields[key] as Plan, [...path, key]);
  return out;
}

/** The value with the lists the plan checks item by item left empty: what the object's own check reads. */
function emptied(value: unknown, plan: Plan): unknown {
  if ('items' in plan) return Array.isArray(value) ? [] : value;
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const [key, sub] of Object.entries(plan.fields)) if (copy[key] !== undefined) copy[key] = emptied(copy[key], sub);
  return copy;
}

function whole(schema: z.ZodType, value: unknown, path: PropertyKey[]): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw validationError(parsed.error.issues.slice(0, MAX_PROBLEMS).map((issue) => ({ path: [...path, ...issue.path].reduce<string>(joinPath, 'body'), message: issue.message })));
}

/**
 * An optional or defaulted field's own schema (the plan only splits a value that is there).
 * Told by the schema's `type`, so that this module does not load zod itself (the browser
 * bundle, which restores nothing, leaves it out).
 */
function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner.type === 'optional' || inner.type === 'default' || inner.type === 'nullable') inner = (inner as z.ZodOptional).unwrap() as z.ZodType;
  return inner;
}

/**
 * Whether the schema checks the value as a whole (a list's length, an object's refinement): such
 * a value is checked whole, as split its check would not be made or would read emptied lists.
 */
function hasChecks(schema: z.ZodType): boolean {
  return (schema._zod.def.checks?.length ?? 0) > 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `body.accounts[0].builds`: the notation of every other validation error. */
export function joinPath(path: string, part: PropertyKey): string {
  return typeof part === 'number' ? `${path}[${part}]` : `${path}.${String(part)}`;
}
