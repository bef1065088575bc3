import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Principal } from '../auth/principal.js';
import { VERSION } from '../version.js';
import { promptList, renderPrompt } from './prompts.js';
import { readResource, RESOURCE_TEMPLATES } from './resources.js';
import { callToolWithFaults, type EngineCall, type ToolFaultEffects, type ToolResult } from './tool-call.js';
import type { ToolDefinition } from './tool-catalog.js';
import { WAIT_FOR_BUILD, waitForBuild, type WaitOptions } from './wait-for-build.js';
import { registerTaskHandlers, TASK_CAPABILITIES } from './tasks/task-handlers.js';
import { TaskAwareServer } from './tasks/task-server.js';
import { taskListing, type TaskService } from './tasks/task-service.js';

/**
 * The MCP server: tools, resources and prompts as thin views over the engine's operations.
 * One factory serves both protocol eras and the in-process transport; the caller comes
 * from the HTTP request's validated credential, or from the principal given in-process.
 */
export interface McpServerDeps {
  tools: Map<string, ToolDefinition>;
  engine: EngineCall;
  /** The timing of injected faults on tool calls (latency, drop, slow body), as the app performs it. */
  effects?: ToolFaultEffects;
  wait: Omit<WaitOptions, 'engine' | 'principal'>;
  /** Builds followed as MCP tasks, when the client asks for one. */
  tasks?: TaskService;
}

const INSTRUCTIONS = `Content Generation Service: researched, verified content through asynchronous builds, paid for with tokens.
Typical flow: getTokenBalance, createTarget (if none: listTargets), createBuild (pass an idempotencyKey; it may run as a task), then waitForBuild (progress at each stage) or the task's status, then getDeliverable or downloadDeliverable.
Tools are the REST operations, named by their operationId; an error is an isError result whose text is { error, code, details }.`;

/**
 * The parameters of resources/read and prompts/get, checked here rather than by the SDK's
 * own schemas, whose refusal is an internal error (-32603) carrying a zod dump: a client
 * that sends a number for a URI gets invalid params (-32602) saying which field is wrong.
 */
const ReadParams = z.object({ uri: z.string({ error: 'must be a string: a content-service:// URI' }) });
const PromptParams = z.object({
  name: z.string({ error: 'must be a string: the name of a prompt' }),
  arguments: z.record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object of strings' }).optional(),
});

/**
 * `inProcessCaller` answers the caller of an in-process connection (no HTTP request to carry a
 * credential); it re-checks the credential on every call, so a revoked key stops working.
 */
export function createMcpServer(deps: McpServerDeps, inProcessCaller?: () => Principal): Server {
  const server = new TaskAwareServer(
    { ...SERVER_INFO },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, ...(deps.tasks ? TASK_CAPABILITIES : {}) },
      instructions: INSTRUCTIONS,
      cacheHints: { 'tools/list': TOOL_LIST_CACHE, 'prompts/list': TOOL_LIST_CACHE },
    },
  );
  const principalOf = (ctx: ServerContext): Principal | undefined =>
    (ctx.http?.authInfo?.extra as { principal?: Principal } | undefined)?.principal ?? inProcessCaller?.();

  const tools = toolList(deps.tools, deps.tasks);
  server.setRequestHandler('tools/list', () => ({ tools }));

  server.setRequestHandler('tools/call', async (request, ctx): Promise<ToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const principal = principalOf(ctx);
    if (name === WAIT_FOR_BUILD.name) {
      const progressToken = request.params._meta?.progressToken;
      const notify = (progress: number, total: number, message: string) =>
        progressToken === undefined ? Promise.resolve() : ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } });
      return clientSafe(await waitForBuild(args, { ...deps.wait, engine: deps.engine, principal, signal: ctx.mcpReq.signal, notify }));
    }
    return runTool(name, args, principal);
  });
  const runTool = (name: string, args: Record<string, unknown>, principal: Principal | undefined) => runToolCall(deps, name, args, principal);
  if (deps.tasks) {
    server.taskCalls = { service: deps.tasks, principalOf, runTool };
    registerTaskHandlers(server, { service: deps.tasks, principalOf, slots: deps.wait.slots, pollMs: deps.wait.pollMs });
  }

  server.setRequestHandler('resources/list', () => ({ resources: [] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler('resources/read', { params: ReadParams }, (params, ctx) => readResource(params.uri, principalOf(ctx), deps.tools, deps.engine));
  server.setRequestHandler('prompts/list', () => ({ prompts: promptList() }));
  server.setRequestHandler('prompts/get', { params: PromptParams }, (params) => renderPrompt(params.name, params.arguments ?? {}));
  return server;
}

/** Who answers: the `serverInfo` of initialize and of every 2026-07-28 result's `_meta`. */
export const SERVER_INFO = { name: 'content-service-simulator', version: VERSION, title: 'Content Generation Service (simulator)' } as const;

/** The tool list is the contract's: it changes only with a new version of the simulator. */
export const TOOL_LIST_CACHE = { ttlMs: 300_000, cacheScope: 'public' } as const;

/** A `tools/call` of any tool but waitForBuild, as the REST request it stands for; an unknown name is a protocol error. */
export async function runToolCall(deps: McpServerDeps, name: string, args: Record<string, unknown>, principal: Principal | undefined): Promise<ToolResult> {
  const tool = deps.tools.get(name);
  if (!tool) throw unknownTool(name);
  return clientSafe(await callToolWithFaults(tool, args, principal, deps.engine, deps.effects));
}

/** The tool list is the contract's: built once for a catalogue, whatever the number of servers and calls. */
const toolLists = new WeakMap<Map<string, ToolDefinition>, ReturnType<typeof listing | typeof WAIT_FOR_BUILD.listing>[]>();
export function toolList(tools: Map<string, ToolDefinition>, tasks: TaskService | undefined) {
  let list = toolLists.get(tools);
  if (!list) toolLists.set(tools, (list = [...[...tools.values()].map((tool) => ({ ...listing(tool), ...taskListing(tool, tasks) })), WAIT_FOR_BUILD.listing(tools)]));
  return list;
}

function listing(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    annotations: tool.annotations,
  };
}

/** An error result goes out without `structuredContent`, which clients check against the success schema. */
function clientSafe(result: ToolResult): ToolResult {
  if (!result.isError) return result;
  const { structuredContent: _dropped, ...rest } = result;
  return rest;
}

/** An unknown tool is a protocol error (-32602), not a tool result. */
function unknownTool(name: string): Error {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
}
