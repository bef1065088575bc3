/**
 * The counts the documents state, held to what the code has: the MCP guide's number of tools
 * (as a client lists them), the CI guide's sample coverage line (the operations of openapi.yaml).
 * A new operation that leaves a document behind fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_CATALOGUE } from '../../contracts/rules/index.js';
import { mcpRig, type McpRig } from '../mcp/support.js';
import { root } from './markdown.js';

const read = (file: string) => readFileSync(join(root, file), 'utf8');
const contract = parse(read('openapi.yaml'));
const operationCount = Object.values(contract.paths as Record<string, Record<string, unknown>>)
  .flatMap((item) => ['get', 'post', 'put', 'patch', 'delete'].filter((m) => item[m])).length;

let rig: McpRig;
beforeAll(async () => void (rig = await mcpRig()));
afterAll(async () => rig?.close());

describe('counts in the documents', () => {
  it('the MCP guide gives the number of tools a client lists', async () => {
    const tools = (await (await rig.client(rig.simulator.keys.readWrite)).listTools()).tools;
    const stated = /(\d+) in all/.exec(read('docs/guides/mcp-and-oauth.md'));
    expect(stated?.[1]).toBe(String(tools.length));
  });

  it('the CI guide\'s sample coverage line has as many operations as openapi.yaml', () => {
    const stated = /EXERCISED: (\d+)\/(\d+) operations/.exec(read('docs/guides/ci-contracts.md'));
    expect(stated?.slice(1)).toEqual([String(operationCount), String(operationCount)]);
  });

  it('the CI guide\'s sample RULES line counts the catalogue\'s rules, and those of each source', () => {
    const line = /RULES: (\d+) of (\d+) rules.*; by source: (.*)/.exec(read('docs/guides/ci-contracts.md'));
    expect(line?.slice(1, 3)).toEqual([String(RULE_CATALOGUE.length), String(RULE_CATALOGUE.length)]);
    const sources = [...new Set(RULE_CATALOGUE.map((r) => r.source))].map((source) => {
      const n = RULE_CATALOGUE.filter((r) => r.source === source).length;
      return `${source} ${n} of ${n}`;
    });
    expect(line?.[3]).toBe(sources.join(', '));
  });
});
