/**
 * The rules the simulator enforces across fields are stated in openapi.yaml too, so a
 * schema-driven tool (a fuzzer, a validator, a generated client's checks) and the simulator
 * agree on every request: each case here is judged by the contract's schema alone, compiled
 * afresh with ajv, and by the simulator, and the two verdicts must match.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../src/contract/ajv.js';
import { harness } from './support/harness.js';

const contract = parse(readFileSync(join(import.meta.dirname, '../openapi.yaml'), 'utf8'));
// A fresh compiler over the document as written: not the simulator's precompiled validators.
const ajv = createAjv();
ajv.addSchema(contract, 'service');
const schemaAccepts = (name: string, value: unknown) => ajv.validate({ $ref: `service#/components/schemas/${name}` }, value);

const TARGET = '00000000-0000-4000-8000-000000000000';
const buildCases: Array<[string, Record<string, unknown>, boolean]> = [
  ['a suite of one page', { kind: 'blog', buildType: 'suite', pages: 1 }, false],
  ['a suite without pages', { kind: 'blog', buildType: 'suite' }, false],
  ['a suite of three pages', { kind: 'blog', buildType: 'suite', pages: 3 }, true],
  ['a single build of three pages', { kind: 'blog', pages: 3 }, false],
  ['a single build of one page', { kind: 'blog', buildType: 'single', pages: 1 }, true],
  ['pressRelease on a blog', { kind: 'blog', pressRelease: { boilerplate: 'x' } }, false],
  ['pressRelease on a press release', { kind: 'press_release', pressRelease: { boilerplate: 'x' } }, true],
  ['socialPlatforms on an email', { kind: 'email', socialPlatforms: ['x'] }, false],
  ['socialPlatforms on a social build', { kind: 'social', socialPlatforms: ['x'] }, true],
  ['a verbatim quote without text', { kind: 'press_release', pressRelease: { quotes: [{ speaker: 'A', mode: 'verbatim' }] } }, false],
  ['a polish quote with blank text', { kind: 'press_release', pressRelease: { quotes: [{ speaker: 'A', text: '  ', mode: 'polish' }] } }, false],
  ['a generated quote without text', { kind: 'press_release', pressRelease: { quotes: [{ speaker: 'A', mode: 'generate' }] } }, true],
  ['a contact at a plain address', { kind: 'press_release', pressRelease: { mediaContact: { name: 'A', email: 'press.office+news@acme-roasters.example' } } }, true],
  // Addresses email format checkers disagree on: some accept them, the contract's pattern does not.
  ['a contact with a "!" in its address', { kind: 'press_release', pressRelease: { mediaContact: { name: 'A', email: 'a!b@acme.example' } } }, false],
  ['a contact at a one-letter top-level domain', { kind: 'press_release', pressRelease: { mediaContact: { name: 'A', email: 'a@acme.x' } } }, false],
  ['a contact at a single-label domain', { kind: 'press_release', pressRelease: { mediaContact: { name: 'A', email: 'a@localhost' } } }, false],
];

const quoteCases: Array<[string, Record<string, unknown>, boolean]> = [
  ['a verbatim quote without text', { mode: 'verbatim' }, false],
  ['a polish quote with blank text', { mode: 'polish', text: '   ' }, false],
  ['a polish quote with text', { mode: 'polish', text: 'um, we are  proud of it' }, true],
  ['a generated quote without text', { mode: 'generate', count: 2 }, true],
];

// The cursor pattern admits exactly the cursors a list can issue: a position of up to ten base-36 digits.
const cursorCases: Array<[string, string, boolean]> = [
  ['a short position', 'c1.2s', true],
  ['ten digits', 'c1.zzzzzzzzzz', true],
  ['eleven digits (beyond any list, and beyond a safe integer)', 'c1.zzzzzzzzzzz', false],
  ['a leading zero', 'c1.02s', false],
  ['another version', 'c2.2s', false],
];
const cursorSchema = contract.components.parameters.Cursor.schema;

describe('cross-field rules, in the contract and in the simulator alike', () => {
  it.each(buildCases)('%s: the schema and the simulator give the same verdict', async (_, fields, valid) => {
    const h = harness();
    const targetId = await h.target();
    const body = { objective: 'Rules in the schema', ...fields, targetId };
    expect(schemaAccepts('BuildCreate', { ...body, targetId: TARGET })).toBe(valid);
    const res = await h.post('/api/v1/builds', body);
    expect(res.status).toBe(valid ? 202 : 400);
  });

  it.each(quoteCases)('suggestQuotes, %s: the schema and the simulator give the same verdict', async (_, fields, valid) => {
    const body = { speaker: 'Dana Reyes', topic: 'our new espresso', ...fields };
    expect(schemaAccepts('QuoteSuggestionRequest', body)).toBe(valid);
    const res = await harness().post('/api/v1/suggestions/quotes', body);
    expect(res.status).toBe(valid ? 200 : 400);
    if (!valid) expect(res.body.details.fields.map((f: { path: string }) => f.path)).toEqual(['body.text']);
  });

  it.each(cursorCases)('a cursor of %s: the schema and the simulator give the same verdict', async (_, cursor, valid) => {
    expect(ajv.validate(cursorSchema, cursor)).toBe(valid);
    const res = await harness().get(`/api/v1/builds?cursor=${cursor}`);
    expect(res.status).toBe(valid ? 200 : 400);
  });

  it('a CTA\'s and a brand asset\'s url is never null in a response, as the schema now says', () => {
    const item = { id: TARGET, targetId: TARGET, type: 'cta', name: 'Book', content: 'Book now', url: null, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
    expect(schemaAccepts('LibraryItem', item)).toBe(false);
    expect(schemaAccepts('LibraryItem', { ...item, url: 'https://acme.example/book' })).toBe(true);
    expect(schemaAccepts('LibraryItem', { ...item, type: 'glossary_term', url: null })).toBe(true);
  });
});
