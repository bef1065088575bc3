import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mcpRig, type McpRig } from './support.js';

const contract = parse(readFileSync(fileURLToPath(new URL('../../openapi.yaml', import.meta.url)), 'utf8'));
const operations = Object.entries(contract.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  ['get', 'post', 'patch', 'put', 'delete'].filter((m) => item[m]).map((m) => ({ path, method: m.toUpperCase(), op: item[m] })),
);

let rig: McpRig;
let tools: any[];
beforeAll(async () => {
  rig = await mcpRig();
  tools = (await (await rig.client(rig.simulator.keys.readWrite)).listTools()).tools;
});
afterAll(async () => rig.close());

describe('MCP: the tools are the contract’s operations', () => {
  it('lists one tool per operationId of openapi.yaml, and waitForBuild', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...operations.map((o) => o.op.operationId), 'waitForBuild'].sort());
  });

  it('marks read-only exactly the GET operations, destructive the deletes and revocations, idempotent the safe replays', () => {
    for (const { method, op } of operations) {
      const tool = tools.find((t) => t.name === op.operationId);
      expect(tool.annotations.readOnlyHint, op.operationId).toBe(method === 'GET');
      if (method === 'DELETE' || op.operationId.startsWith('revoke')) expect(tool.annotations.destructiveHint, op.operationId).toBe(true);
      if (method === 'POST' && !op.operationId.startsWith('revoke') && !op.operationId.startsWith('rotate')) expect(tool.annotations.destructiveHint, op.operationId).toBe(false);
      expect(tool.description.length, op.operationId).toBeGreaterThan(0);
    }
    for (const name of ['createBuild', 'purchaseTokens']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool.annotations.idempotentHint).toBe(true);
      expect(tool.inputSchema.properties.idempotencyKey).toBeDefined();
    }
    expect(tools.find((t) => t.name === 'createTarget').annotations.idempotentHint).toBe(false);
  });

  it('gives every tool a valid JSON Schema 2020-12 input, and an output schema where the success body is JSON', () => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, validateFormats: false, allowUnionTypes: true });
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      if (tool.outputSchema) expect(() => ajv.compile(tool.outputSchema), tool.name).not.toThrow();
    }
    const getBuild = tools.find((t) => t.name === 'getBuild');
    expect(getBuild.inputSchema.required).toEqual(['buildId']);
    expect(getBuild.outputSchema).toBeDefined();
    expect(tools.find((t) => t.name === 'downloadDeliverable').outputSchema).toBeUndefined();
    const createBuild = tools.find((t) => t.name === 'createBuild');
    expect(createBuild.inputSchema.required).toEqual(expect.arrayContaining(['targetId', 'objective']));
  });

  it('spells every schema as function-calling converters accept it, admitting what the contract admits', () => {
    const findings: string[] = [];
    for (const tool of tools) {
      walkSchema(tool.inputSchema, `${tool.name}.inputSchema`, findings);
      if (tool.outputSchema) walkSchema(tool.outputSchema, `${tool.name}.outputSchema`, findings);
    }
    expect(findings).toEqual([]);
    // The rules that were boolean schemas still hold: pressRelease only with kind press_release.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const createBuild = ajv.compile(tools.find((t) => t.name === 'createBuild').inputSchema);
    const brief = { targetId: '00000000-0000-4000-8000-000000000000', buildType: 'single', kind: 'blog', objective: 'x', researchPolicy: 'required' };
    expect(createBuild(brief)).toBe(true);
    expect(createBuild({ ...brief, pressRelease: {} })).toBe(false);
    expect(createBuild({ ...brief, socialPlatforms: ['linkedin'] })).toBe(false);
  });
});

const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', '$defs']);

/** What converters refuse: a bare boolean schema, a `type` array, a schema that constrains nothing (outside `not`). */
function walkSchema(node: unknown, path: string, findings: string[], keyword?: string): void {
  if (typeof node === 'boolean') {
    if (!keyword || !BOOLEAN_VALUED.has(keyword)) findings.push(`${path}: bare ${node}`);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.type)) findings.push(`${path}: type ${JSON.stringify(schema.type)}`);
  const constraining = Object.keys(schema).filter((key) => !ANNOTATIONS.has(key) && key !== 'if');
  if (constraining.length === 0 && keyword !== 'not') findings.push(`${path}: constrains nothing`);
  for (const key of ['properties', 'patternProperties', '$defs', 'dependentSchemas']) {
    for (const [name, sub] of Object.entries((schema[key] as Record<string, unknown> | undefined) ?? {})) walkSchema(sub, `${path}.${key}.${name}`, findings, key);
  }
  for (const key of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) (schema[key] as unknown[] | undefined)?.forEach((sub, i) => walkSchema(sub, `${path}.${key}[${i}]`, findings, key));
  for (const key of ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', ...BOOLEAN_VALUED]) if (key in schema) walkSchema(schema[key], `${path}.${key}`, findings, key);
}
