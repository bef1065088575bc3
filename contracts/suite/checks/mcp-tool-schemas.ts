import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { Check } from '../check.js';
import { McpSession } from '../mcp-client.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { ContractFailure, expectThat } from '../../shared/outcomes.js';
import { readRequestSchemas } from '../../shared/request-schema.js';

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv2020) => Ajv2020;

export const TOOL_SCHEMAS = 'MCP Server, Tools: each tool\'s inputSchema takes what its operation of openapi.yaml takes: every path parameter (required), every query parameter (required as the operation says, with the same enum), every body field (flat or under body, the required ones required); and structured results conform to the tool\'s outputSchema';

type Json = Record<string, any>;

/** Reads that need no id the check must find: their structured results are held to their outputSchema. */
const PLAIN_READS = ['getTokenBalance', 'listTargets', 'listApiKeys', 'listVoices', 'listTokenBundles', 'listTokenTransactions'];

/** A node of a tool's schema with its local $ref (`#/$defs/…`) followed. */
function local(root: Json, node: Json | undefined): Json | undefined {
  let current = node;
  for (let i = 0; i < 10 && typeof current?.$ref === 'string' && current.$ref.startsWith('#/'); i++) {
    current = (current.$ref as string).slice(2).split('/').reduce((n: Json | undefined, k: string) => n?.[k], root);
  }
  return current;
}

function problemsOf(tool: Json, op: OperationInfo, bodyFields: string[], requiredBody: string[]): string[] {
  const input = (tool.inputSchema ?? {}) as Json;
  const props = (input.properties ?? {}) as Json;
  const required = new Set<string>(input.required ?? []);
  const problems: string[] = [];
  for (const p of op.parameters.filter((x) => x.in === 'path' || x.in === 'query')) {
    if (!(p.name in props)) {
      problems.push(`${tool.name} takes no ${p.in} parameter ${p.name}`);
      continue;
    }
    if (p.required !== required.has(p.name)) problems.push(`${tool.name}: ${p.name} is ${required.has(p.name) ? '' : 'not '}required, openapi.yaml says ${p.required ? '' : 'not '}required`);
    const theirs = local(input, props[p.name])?.enum;
    if (Array.isArray(p.schema.enum) && JSON.stringify([...(theirs ?? [])].sort()) !== JSON.stringify([...p.schema.enum].sort())) problems.push(`${tool.name}: ${p.name} takes ${JSON.stringify(theirs)}, openapi.yaml ${JSON.stringify(p.schema.enum)}`);
  }
  if (op.hasBody && bodyFields.length) {
    const nested = props.body as Json | undefined;
    const where = nested ? ((nested.properties ?? {}) as Json) : props;
    const whereRequired = new Set<string>(nested ? (nested.required ?? []) : (input.required ?? []));
    for (const f of bodyFields) if (!(f in where)) problems.push(`${tool.name} takes no body field ${f}`);
    for (const f of requiredBody) if (!whereRequired.has(f)) problems.push(`${tool.name}: body field ${f} is not required, openapi.yaml requires it`);
  }
  return problems;
}

export function mcpToolSchemaChecks(operations: readonly OperationInfo[]): Check[] {
  return [
    {
      id: 'mcp.tool-schemas',
      title: TOOL_SCHEMAS,
      level: 'strict',
      requests: PLAIN_READS.length + 4,
      run: async (s) => {
        const mcp = await McpSession.open(s);
        const listed = await mcp.request('tools/list');
        const tools = (listed.message?.result?.tools ?? []) as Json[];
        expectThat(tools.length > 0, `${TOOL_SCHEMAS}: tools/list answered ${JSON.stringify(listed.message).slice(0, 160)}`);
        const { bodyFields, requiredFields } = readRequestSchemas();
        const problems = tools.flatMap((tool) => {
          const op = operations.find((o) => o.id === tool.name);
          return op ? problemsOf(tool, op, bodyFields.get(op.id) ?? [], requiredFields.get(op.id) ?? []) : [];
        });
        if (problems.length) throw new ContractFailure(`${TOOL_SCHEMAS}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
        const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: false }));
        for (const name of PLAIN_READS) {
          const tool = tools.find((t) => t.name === name);
          if (!tool?.outputSchema) continue;
          const reply = await mcp.callTool(name, {});
          const result = reply.message?.result;
          if (result?.isError) throw new ContractFailure(`${TOOL_SCHEMAS}: ${name} answered an error: ${JSON.stringify(result).slice(0, 200)}`);
          const validate = ajv.compile(tool.outputSchema);
          if (!validate(result?.structuredContent)) throw new ContractFailure(`${TOOL_SCHEMAS}: ${name}'s structuredContent breaks its outputSchema: ${ajv.errorsText(validate.errors).slice(0, 300)}`);
        }
      },
    },
  ];
}
