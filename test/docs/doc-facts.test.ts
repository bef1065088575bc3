/**
 * The counts and sizes the documents state, held to what the code has: the MCP guide's number
 * of tools (as a client lists them), the CI guide's sample coverage line (the operations of
 * openapi.yaml), the frontend guide's bundle sizes (as `npm run build` and the bench make them),
 * the dashboard's size in the control API reference.
 * A new operation that leaves a document behind fails here, and so does a bundle that grew.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRestBundle, buildWholeBundle } from '../../scripts/bundle-browser.js';
import { RULE_CATALOGUE } from '../../contracts/suite/rules/index.js';
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

  it('the frontend guide\'s bundle sizes are the built bundles\', within 2%', async () => {
    const guide = read('docs/guides/frontend-msw.md');
    const [rest, whole] = [await buildRestBundle(), await buildWholeBundle()];
    const kib = (bytes: number) => bytes / 1024;
    const stated = {
      restGzip: Number(/\*\*([\d.]+) KiB gzipped\*\*/.exec(guide)?.[1]),
      restMinified: Number(/\(([\d.]+) KiB minified/.exec(guide)?.[1]),
      wholeGzip: Number(/([\d.]+) KiB gzipped in a page/.exec(guide)?.[1]),
    };
    const actual = { restGzip: kib(rest.gzipBytes), restMinified: kib(rest.bytes), wholeGzip: kib(whole.gzipBytes) };
    for (const name of Object.keys(stated) as Array<keyof typeof stated>) {
      expect(Math.abs(stated[name] - actual[name]) / actual[name], `${name}: the guide says ${stated[name]} KiB, the build makes ${actual[name].toFixed(1)} KiB`).toBeLessThanOrEqual(0.02);
    }
  }, 60_000);

  it('the control API reference gives the dashboard\'s size as its files have it, within 15%', () => {
    const dir = join(root, 'src/web/dashboard');
    const bytes = readdirSync(dir).reduce((sum, file) => sum + statSync(join(dir, file)).size, 0);
    const stated = Number(/about\s+(\d+)\s+KB, no framework/.exec(read('docs/reference/control-api.md'))?.[1]) * 1000;
    expect(Math.abs(stated - bytes) / bytes, `the reference says ${stated / 1000} KB, the files are ${(bytes / 1000).toFixed(1)} KB`).toBeLessThanOrEqual(0.15);
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
