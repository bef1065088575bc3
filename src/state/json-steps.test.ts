import { describe, expect, it } from 'vitest';
import { JsonReadError, readJsonSteps, type JsonLimits } from './json-steps.js';
import { runAtOnce } from './steps.js';

const LIMITS: JsonLimits = { maxStringLength: 1000, maxDepth: 8 };
const bytes = (text: string) => new TextEncoder().encode(text);
const read = (text: string | Uint8Array, limits = LIMITS) => runAtOnce(readJsonSteps(typeof text === 'string' ? bytes(text) : text, limits));

function refusal(text: string | Uint8Array, limits = LIMITS): JsonReadError {
  try {
    read(text, limits);
  } catch (error) {
    if (error instanceof JsonReadError) return error;
    throw error;
  }
  throw new Error(`read: ${String(text)}`);
}

describe('JSON read from bytes in steps', () => {
  it('makes what JSON.parse makes', () => {
    const texts = [
      '0', '-0', '12', '-3.25e+2', '1E-7', '1e400', '123456789012345678901234567890', 'true', 'false', 'null', '""', '"a"',
      '"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"', '"\\ud83d\\ude00 and a lone \\ud800"', '"héllo wörld ✓ 😀"', ' [ ] ', '{}', '[1,[2,[3,[]]],{"a":{"b":[null]}}]',
      '{"a":1,"a":2}', '{"":0,"x y":"z"}', '\t\r\n{"k" : [ 1 , 2 ] }\n', `"${'x'.repeat(200)}"`, `"${'é'.repeat(300)}"`,
    ];
    for (const text of texts) expect(read(text), text).toEqual(JSON.parse(text));
    const mixed = { accounts: Array.from({ length: 300 }, (_, i) => ({ id: `a${i}`, n: i * 1.5, s: 'x\u2028y\u0001', ok: i % 2 === 0, none: null })) };
    expect(read(JSON.stringify(mixed), { maxStringLength: 1000, maxDepth: 8 })).toEqual(mixed);
  });

  it('keeps __proto__ as a plain key, as JSON.parse does', () => {
    const value = read('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('skips a byte-order mark, as TextDecoder does', () => {
    expect(read(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('[1]')]))).toEqual([1]);
  });

  it('refuses every text JSON.parse refuses', () => {
    const texts = [
      '', ' ', '[', ']', '{', '[1,]', '{"a":1,}', '{a:1}', "{'a':1}", '01', '-', '1.', '.5', '1e', '+1', 'NaN', 'tru', 'nul', '[1 2]', '{"a" 1}',
      '"abc', '"\\x"', '"\\u12"', '"\\u12g4"', '"tab\there"', '1 2', '[1]]', '{"a":1}}', '"a"b',
    ];
    for (const text of texts) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(refusal(text).kind, text).toBe('syntax');
    }
  });

  it('refuses a string that is not UTF-8, naming where it stands', () => {
    const error = refusal(new Uint8Array([...bytes('{"name":"'), 0xc3, 0x28, ...bytes('"}')]));
    expect([error.kind, error.path]).toEqual(['encoding', 'name']);
  });

  it('refuses a string over the limit where it starts, naming its place, before it is built', () => {
    const long = `{"accounts":[{"id":"a"},{"name":"${'x'.repeat(1001)}"}]}`;
    const error = refusal(long);
    expect([error.kind, error.path, error.message]).toEqual(['limit', 'accounts[1].name', 'is a string longer than 1000 characters']);
    // At the limit: read. Escapes count as the characters they stand for.
    expect(read(`"${'x'.repeat(1000)}"`)).toHaveLength(1000);
    expect(read(`"${'\\u0041'.repeat(1000)}"`)).toHaveLength(1000);
    expect(refusal(`"${'\\u0041'.repeat(1001)}"`).kind).toBe('limit');
    // An unclosed string of any size stops at six bytes a character past the limit, not at its end.
    expect(refusal(`"${'x'.repeat(50_000)}`).kind).toBe('limit');
    expect(refusal(`{"${'k'.repeat(1001)}":1}`).kind).toBe('limit');
  });

  it('reads a number of any length as JSON.parse does (no call whose arguments grow with it)', () => {
    for (const digits of [65, 1_000_000]) {
      const text = `[-${'7'.repeat(digits)}.5e-3]`;
      expect(read(text), `${digits} digits`).toEqual(JSON.parse(text));
    }
  });

  it('refuses nesting deeper than the limit', () => {
    expect(read('[[[[[[[[1]]]]]]]]')).toEqual([[[[[[[[1]]]]]]]]);
    const error = refusal('[[[[[[[[[1]]]]]]]]]');
    expect([error.kind, error.message]).toEqual(['limit', 'nests deeper than 8 levels']);
  });

  it('reads a large document in many steps, none of them the whole', () => {
    const text = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ i, s: `v${i}` })));
    const steps = readJsonSteps(bytes(text), LIMITS);
    let count = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) count++;
    expect(count).toBeGreaterThan(20);
    expect(next.value).toEqual(JSON.parse(text));
  });
});
