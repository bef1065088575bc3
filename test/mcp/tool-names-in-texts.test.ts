import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_STAGES, describeBuild } from '../../src/mcp/tasks/build-stages.js';
import { promptList, renderPrompt } from '../../src/mcp/prompts.js';
import { mcpRig, type McpRig } from './support.js';

/**
 * Every text the simulator writes for an assistant (task status messages, tool descriptions,
 * prompts, the errors of /mcp) names only tools that exist: an assistant told to call a tool
 * the server does not serve calls it and fails. A tool-like name is a verb of the operations'
 * names followed by a capital (getBuild, waitForBuild); each must be in the served tool list.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const TOOL_LIKE = /\b(?:get|list|create|update|delete|download|revoke|rotate|suggest|extract|purchase|post|wait|cancel|fetch|read)[A-Z][A-Za-z]*\b/g;

let rig: McpRig;
let served: Set<string>;

beforeAll(async () => {
  rig = await mcpRig();
  const client = await rig.client(rig.simulator.keys.readWrite);
  const { tools } = await client.listTools();
  served = new Set(tools.map((t) => t.name));
});
afterAll(() => rig.close());

const unknownIn = (text: string) => [...new Set(text.match(TOOL_LIKE) ?? [])].filter((name) => !served.has(name));

/** Every string and template text in the MCP server's sources, with where it stands. */
function sourceTexts(): { where: string; text: string }[] {
  const dir = join(root, 'src/mcp');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const texts: { where: string; text: string }[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(dir, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        texts.push({ where: `${relative(root, join(dir, file))}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, text: node.text });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return texts;
}

describe('the tool names in what the simulator writes for assistants', () => {
  it('are all served: every string of the MCP server (task messages, errors, descriptions)', () => {
    const texts = sourceTexts();
    expect(texts.length).toBeGreaterThan(200);
    const named = texts.filter((t) => (t.text.match(TOOL_LIKE) ?? []).length > 0);
    expect(named.length, 'the scan finds the tool names the texts hold').toBeGreaterThan(5);
    expect(texts.flatMap((t) => unknownIn(t.text).map((name) => `${t.where}: ${name} in ${JSON.stringify(t.text.slice(0, 120))}`))).toEqual([]);
  });

  it('are all served: the task status message of every stage', () => {
    const messages = BUILD_STAGES.map((status) => describeBuild({ id: 'bld_1', status, progress: 50 } as Parameters<typeof describeBuild>[0]));
    messages.push(describeBuild({ id: 'bld_1', status: 'failed', progress: 40, failure: { stage: 'drafting', reason: 'no' } } as Parameters<typeof describeBuild>[0]));
    expect(messages.join('\n')).toMatch(/getDeliverable/);
    expect(messages.flatMap(unknownIn)).toEqual([]);
  });

  it('are all served: the tools\' own descriptions and the prompts as rendered', async () => {
    const client = await rig.client(rig.simulator.keys.readWrite);
    const { tools } = await client.listTools();
    expect(tools.flatMap((t) => unknownIn(`${t.title ?? ''} ${t.description ?? ''} ${JSON.stringify(t.inputSchema)}`).map((n) => `${t.name}: ${n}`))).toEqual([]);
    const prompts = promptList().map((p) => `${p.description} ${p.arguments.map((a) => a.description).join(' ')} ${JSON.stringify(renderPrompt(p.name, Object.fromEntries(p.arguments.map((a) => [a.name, 'x']))))}`);
    expect(prompts.join('\n')).toMatch(/createBuild/);
    expect(prompts.flatMap(unknownIn)).toEqual([]);
  });
});
