import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { checkInSteps, each, fields } from './snapshot-check.js';
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

  it("holds a list to its schema's own checks (its length) too, not only its items", () => {
    const schema = z.object({ list: z.array(z.number()).max(2).optional() });
    expect(check(schema, { list: [1, 2] })).toEqual({ list: [1, 2] });
    expect(problems(schema, { list: [1, 2, 3] })).toEqual([{ path: 'body.list', message: expect.any(String) }]);
  });
});
