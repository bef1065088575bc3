import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { portableSchema } from './portable-schema.js';

const ajv = new Ajv2020({ strict: false, validateFormats: false });
const ANY = [{ type: 'object' }, { type: 'array' }, { type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }];

/** The rewrite must admit exactly what the original admits. */
function expectSameVerdicts(original: object, samples: unknown[]) {
  const before = ajv.compile(original);
  const after = ajv.compile(portableSchema(structuredClone(original) as Record<string, unknown>));
  for (const sample of samples) expect(after(sample), JSON.stringify(sample)).toBe(before(sample));
}

describe('portable tool schemas', () => {
  it('writes a forbidden property as { not: {} } and keeps additionalProperties: false', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: { kind: { type: 'string' }, pressRelease: { type: 'object' } },
      allOf: [{ if: { required: ['kind'], properties: { kind: { not: { const: 'press_release' } } } }, then: { properties: { pressRelease: false } } }],
    };
    const out = portableSchema(schema) as any;
    expect(out.allOf[0].then.properties.pressRelease).toEqual({ not: {} });
    expect(out.additionalProperties).toBe(false);
    expect(out.allOf[0].if.properties.kind).toEqual({ not: { const: 'press_release' } });
    expectSameVerdicts(schema, [{ kind: 'blog' }, { kind: 'blog', pressRelease: {} }, { kind: 'press_release', pressRelease: {} }, { kind: 'x', extra: 1 }]);
  });

  it('splits a type union into single-type anyOf branches, beside an anyOf already there', () => {
    const nullable = { type: ['string', 'null'], format: 'uuid', description: 'The build, if any.' };
    expect(portableSchema(nullable)).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }], format: 'uuid', description: 'The build, if any.' });
    const both = { type: ['integer', 'null'], anyOf: [{ minimum: 5 }, { const: null }] };
    expect(portableSchema(both)).toEqual({ anyOf: [{ minimum: 5 }, { const: null }], allOf: [{ anyOf: [{ type: 'integer' }, { type: 'null' }] }] });
    expectSameVerdicts({ type: 'object', properties: { a: nullable, b: both } }, [{ a: null }, { a: 'x' }, { a: 3 }, { b: 6 }, { b: 2 }, { b: null }, { b: 'x' }]);
  });

  it('drops property entries that constrain nothing, unless a sibling reads the names', () => {
    const oneOf = {
      type: 'object',
      properties: { targetId: { type: 'string' }, phrase: { type: 'string' } },
      oneOf: [
        { type: 'object', required: ['targetId'], properties: { targetId: {} } },
        { type: 'object', required: ['phrase'], properties: { phrase: {} }, not: { required: ['targetId'], properties: { targetId: {} } } },
      ],
    };
    const out = portableSchema(oneOf) as any;
    expect(out.oneOf[0]).toEqual({ type: 'object', required: ['targetId'] });
    expect(out.oneOf[1]).toEqual({ type: 'object', required: ['phrase'], not: { required: ['targetId'] } });
    expectSameVerdicts(oneOf, [{}, { targetId: 'a' }, { phrase: 'p' }, { targetId: 'a', phrase: 'p' }, { targetId: 1 }]);

    const closed = { type: 'object', additionalProperties: false, properties: { kindData: {} } };
    expect(portableSchema(closed)).toEqual({ type: 'object', additionalProperties: false, properties: { kindData: { anyOf: ANY } } });
    expectSameVerdicts(closed, [{ kindData: 1 }, { kindData: { a: [null] } }, { other: 1 }, {}]);

    const unevaluated = { type: 'object', unevaluatedProperties: false, allOf: [{ properties: { a: {} } }] };
    expect((portableSchema(unevaluated) as any).allOf[0].properties.a).toEqual({ anyOf: ANY });
    expectSameVerdicts(unevaluated, [{ a: 1 }, { b: 1 }]);
  });

  it('says "any value" explicitly where a schema constrains nothing, and keeps its words', () => {
    expect(portableSchema({ type: 'array', items: { description: 'Anything.' } })).toEqual({ type: 'array', items: { description: 'Anything.', anyOf: ANY } });
    expect(portableSchema({ type: 'array', items: true })).toEqual({ type: 'array', items: { anyOf: ANY } });
    // Under `not`, `{}` is the exact always-false it means.
    expect(portableSchema({ type: 'object', not: {} })).toEqual({ type: 'object', not: {} });
    expectSameVerdicts({ type: 'array', items: { description: 'Anything.' } }, [[1, 'a', null, true, { a: 1 }, [2]], 'x']);
  });

  it('follows $defs and array forms, and leaves the input untouched', () => {
    const schema = { type: 'object', $defs: { Page: { type: 'object', properties: { next: { type: ['string', 'null'] } } } }, properties: { pages: { type: 'array', items: { $ref: '#/$defs/Page' } } } };
    const copy = structuredClone(schema);
    const out = portableSchema(schema) as any;
    expect(out.$defs.Page.properties.next).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(schema).toEqual(copy);
  });
});
