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
});
