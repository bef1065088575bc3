import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { checkInSteps, each, fields, type Plan } from './snapshot-check.js';
import { SNAPSHOT_PLAN, simulationSnapshot } from './snapshot-schema.js';
import { runAtOnce } from './steps.js';

const check = (schema: z.ZodType, value: unknown, plan = fields({ list: each() })) => runAtOnce(checkInSteps(schema, value, plan));
const problems = (schema: z.ZodType, value: unknown) => {
  try {
    check(schema, value);
  } catch (error) {
    if (error instanceof ApiError) return (error.details as { fields: unknown[] }).fields;
    throw error;
  }
  return [];
};

describe('a snapshot checked a record at a time', () => {
  it('makes what the schema makes of the whole: defaults filled, unknown fields dropped, each item checked', () => {
    const schema = z.object({ list: z.array(z.object({ n: z.number(), d: z.string().default('x') })), top: z.string() });
    const value = { list: [{ n: 1 }, { n: 2, extra: true }], top: 't', extra: 1 };
    expect(check(schema, value)).toEqual(schema.parse(value));
    expect(problems(schema, { list: [{ n: 1 }, { n: 'two' }], top: 't' })).toEqual([{ path: 'body.list[1].n', message: expect.any(String) }]);
  });

  it("holds a list to its schema's own checks (its length), not only its items", () => {
    const schema = z.object({ list: z.array(z.number()).max(2).optional() });
    expect(check(schema, { list: [1, 2] })).toEqual({ list: [1, 2] });
    expect(problems(schema, { list: [1, 2, 3] })).toEqual([{ path: 'body.list', message: expect.any(String) }]);
  });

  it('holds an object to a refinement that reads a list the plan would split', () => {
    const schema = z.object({ list: z.array(z.number()), count: z.number() }).refine((o) => o.list.length === o.count, { path: ['count'], message: 'must count the list' });
    expect(check(schema, { list: [1, 2], count: 2 })).toEqual({ list: [1, 2], count: 2 });
    expect(problems(schema, { list: [1, 2], count: 0 })).toEqual([{ path: 'body.count', message: 'must count the list' }]);
  });

  it("splits every list and object the snapshot's plan names: none has a check of its own that would make it be read whole", () => {
    const wholes: string[] = [];
    const walk = (schema: z.ZodType, plan: Plan, at: string) => {
      let inner = schema;
      while (inner.type === 'optional' || inner.type === 'default') inner = (inner as z.ZodOptional).unwrap() as z.ZodType;
      if (inner._zod.def.checks?.length) wholes.push(at);
      if ('items' in plan) {
        if (plan.items) walk((inner as z.ZodArray).element as z.ZodType, plan.items, `${at}[]`);
      } else {
        for (const [key, sub] of Object.entries(plan.fields)) walk((inner as z.ZodObject).shape[key] as z.ZodType, sub, `${at}.${key}`);
      }
    };
    walk(simulationSnapshot, SNAPSHOT_PLAN, 'body');
    expect(wholes).toEqual([]);
  });
});
