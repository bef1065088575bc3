import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { allChecks } from '../contracts/suite/checks/index.js';
import { readOperations } from '../contracts/shared/openapi-model.js';
import { smallestBody } from '../contracts/suite/properties/refusals.js';
import { casesFor, edgeBodies } from '../contracts/suite/properties/round-trip.js';
import { requestBodySchema, withField, type Json } from '../contracts/suite/properties/schema.js';
import { SUBJECTS } from '../contracts/suite/properties/subjects.js';
import { brokenConstraints, codePoints, objectFor, type Context } from '../contracts/suite/properties/values.js';
import { SOURCE_MAP, verdictOf } from '../contracts/suite/rules/source-map.js';
import { openapiStatements, type SourceStatement } from '../contracts/suite/rules/source-statements.js';
import { failedOf, runFocused } from './support/focused-run.js';

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: false }));
const UUID = '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d';
const ctx = (enumIndex?: number): Context => ({ unique: 'run-7', given: { targetId: UUID }, enumIndex });
const doc = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8'));
const statements = openapiStatements(doc);
const ruledBy = (rule: string): SourceStatement[] => statements.filter((s) => {
  const v = verdictOf(s, SOURCE_MAP)?.verdict;
  return v !== undefined && 'rules' in v && v.rules.includes(rule);
});
const checkIds = new Set(allChecks(readOperations(), 'strict').map((c) => c.id));
const schemaOf = (op: string) => requestBodySchema(op) as Json;

describe('the generated bodies are what openapi.yaml says they are', () => {
  for (const subject of SUBJECTS) {
    const schema = schemaOf(subject.op);
    const valid = ajv.compile(schema);

    it(`${subject.op}: every edge body and every drawn body is valid, and each broken constraint makes a body invalid`, () => {
      const edges = edgeBodies(schema, casesFor(schema), 11, ctx);
      const drawn = fc.sample(objectFor(schema, 'drawn', ctx()) as fc.Arbitrary<Json>, { seed: 5, numRuns: 20 });
      for (const body of [...edges, ...drawn]) expect(valid(body), `${JSON.stringify(body).slice(0, 200)}: ${ajv.errorsText(valid.errors)}`).toBe(true);
      const base = subject.op.startsWith('update') ? {} : smallestBody(schema, ctx(), 1);
      const broken = brokenConstraints(schema);
      expect(broken.length).toBeGreaterThan(2);
      for (const b of broken) {
        if (subject.op.startsWith('update') && b.omit) continue;
        const body = b.field === '' ? {} : withField(base, b.field.split('.'), b.value, b.omit);
        expect(valid(body), `${b.label}: ${JSON.stringify(body).slice(0, 200)} is still valid`).toBe(false);
      }
    });
  }

  it('strings at their maxLength are counted in characters, with characters outside the BMP, decomposed accents and markup', () => {
    const schema = schemaOf('createTarget');
    const longest = edgeBodies(schema, 3, 3, ctx).slice(0, 3);
    for (const body of longest) {
      expect(codePoints(body.name)).toBe(120);
      expect(codePoints(body.description)).toBe(2000);
      expect(body.description.length, 'UTF-16 units exceed the characters').toBeGreaterThan(2000);
    }
    const all = longest.map((b) => b.description).join('');
    for (const piece of ['𝄞', 'e\u0301', '<', '&']) expect(all).toContain(piece);
    expect(longest.map((b) => b.name).every((n) => n.trim() === n)).toBe(true);
  });

  it('the same seed draws the same bodies', () => {
    const schema = schemaOf('createLibraryItem');
    expect(edgeBodies(schema, 4, 42, ctx)).toEqual(edgeBodies(schema, 4, 42, ctx));
    expect(edgeBodies(schema, 4, 42, ctx)).not.toEqual(edgeBodies(schema, 4, 43, ctx));
  });
});

describe('what the source map says the properties check, they check', () => {
  it('every request enum value mapped to the round trips is sent by an edge body', () => {
    const mapped = ruledBy('openapi.properties.round-trip');
    expect(mapped.length).toBeGreaterThanOrEqual(9);
    const sent = new Set<string>();
    for (const subject of SUBJECTS.filter((x) => x.readBack)) {
      const schema = schemaOf(subject.op);
      for (const body of edgeBodies(schema, casesFor(schema), 1, ctx)) collect(body, sent);
    }
    const missing = mapped.map((s) => /one of the values is (.+)$/.exec(s.text)?.[1]).filter((v) => !sent.has(String(v)));
    expect(missing).toEqual([]);
  });

  it('every default mapped to the properties has its check', () => {
    const mapped = ruledBy('openapi.properties.defaults');
    expect(mapped.length).toBeGreaterThanOrEqual(10);
    for (const s of mapped) {
      const list = /^operation (\w+), query parameter limit$/.exec(s.where)?.[1];
      const field = /^schema (\w+)\.(\w+)$/.exec(s.where);
      const op = field ? SUBJECTS.find((x) => requestBodySchema(x.op) && schemaNameOf(x.op) === field[1])?.op : undefined;
      const id = list ? `properties.default-limit.${list}` : `properties.default.${op}.${field?.[2]}`;
      expect(checkIds.has(id), `${s.where}: ${id}`).toBe(true);
    }
  });

  it('every request constraint mapped to the refusals is broken once by a refusal check', () => {
    const mapped = ruledBy('openapi.properties.refusals');
    expect(mapped.length).toBeGreaterThan(80);
    const labels = SUBJECTS.flatMap((x) => brokenConstraints(schemaOf(x.op)).map((b) => b.label));
    const unbroken = mapped.filter((s) => !labels.some((l) => l.endsWith(expectedLabel(s))));
    expect(unbroken.map((s) => `${s.where}: ${s.text}`)).toEqual([]);
  });
});

describe('the properties and the flows against the simulator', () => {
  it('pass, each with a result (the correct simulator breaks none of them)', async () => {
    const results = await runFocused(['properties.', 'oauth.refresh-replay', 'oauth.cross-client', 'oauth.pkce-downgrade', 'oauth.revocation-kinds', 'oauth.denied', 'oauth.metadata-complete', 'oauth.page-escapes', 'mcp.notification', 'mcp.envelope', 'mcp.versions', 'mcp.session-ended', 'mcp.tool-schemas', 'mcp.tasks-owner', 'mcp.origin']);
    expect(failedOf(results)).toBe('');
    expect(results.filter((r) => r.status === 'passed').length).toBeGreaterThan(40);
  });
});

/** The label of the broken constraint a statement names: `seo.primaryKeywords[]: maxLength 80`, `name: required`. */
function expectedLabel(s: SourceStatement): string {
  const field = s.where.replace(/^schema [A-Za-z]+\.?/, '');
  const keyword = s.text.slice(s.text.indexOf(': ') + 2);
  const required = /^(\S+) is required$/.exec(keyword);
  if (required) return `${field ? `${field}.` : ''}${required[1]}: required`;
  const normal = keyword
    .replace(/^no property beyond those listed$/, 'additionalProperties false')
    .replace(/^uniqueItems true$/, 'uniqueItems')
    .replace(/^(type|format) "(.+)"$/, '$1 $2')
    .replace(/^pattern (".*")$/, (_, p: string) => `pattern ${JSON.parse(p)}`);
  return field ? `${field}: ${normal}` : normal;
}

function schemaNameOf(op: string): string | undefined {
  for (const item of Object.values(doc.paths as Json)) for (const o of Object.values(item as Json)) if (o?.operationId === op) return o.requestBody?.content?.['application/json']?.schema?.$ref?.split('/').at(-1);
  return undefined;
}

function collect(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(JSON.stringify(value));
  else if (Array.isArray(value)) value.forEach((v) => collect(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => collect(v, into));
}

