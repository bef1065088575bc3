import { ProtocolError, ProtocolErrorCode, Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';
import type { Principal } from '../../auth/principal.js';
import type { ToolResult } from '../tool-call.js';
import { declaresTasks, servesModern } from './task-handlers.js';
import type { TaskService } from './task-service.js';
import { createdV1, createdV2 } from './task-wire.js';

/**
 * An MCP server whose `tools/call` may answer with a task. The SDK checks a `tools/call` result
 * against `CallToolResult`, which a task handle is not, so a call that becomes a task is
 * answered here, before that check (the SDK's documented hook for role-specific wrapping);
 * every other call goes through the SDK's own handler and checks unchanged.
 */
export interface TaskCallDeps {
  service: TaskService;
  principalOf: (ctx: ServerContext) => Principal | undefined;
  /** Runs a tool call as `tools/call` does without a task (faults performed, errors as isError results). */
  runTool: (name: string, args: Record<string, unknown>, principal: Principal) => Promise<ToolResult>;
}

export class TaskAwareServer extends Server {
  taskCalls?: TaskCallDeps;

  protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return async (request, ctx) => (await this.asTask(request, ctx)) ?? wrapped(request, ctx);
  }

  /** The task handle for a call that runs as a task, or undefined to answer it as usual. */
  private async asTask(request: JSONRPCRequest, ctx: ServerContext): Promise<Result | undefined> {
    const deps = this.taskCalls;
    if (!deps) return undefined;
    const params = (request.params ?? {}) as { name?: unknown; arguments?: unknown; task?: unknown };
    const modern = servesModern(this);
    const asked = modern ? declaresTasks(ctx) : isObject(params.task);
    if (!asked) return undefined;
    const name = params.name;
    if (typeof name !== 'string' || !deps.service.taskTools.has(name)) {
      // 2025-11-25: a task asked of a tool whose taskSupport is absent (forbidden) is refused; 2026-07-28: the server decides, and answers as usual.
      if (modern) return undefined;
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `The tool ${String(name)} does not run as a task (its execution.taskSupport is not "optional"): call it without params.task.`);
    }
    const principal = deps.principalOf(ctx);
    if (!principal) return undefined;
    if (!deps.service.makeRoom(principal)) {
      if (modern) return undefined;
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'This account holds as many tasks as it may, all still following builds: let one end or expire, or call without params.task.');
    }
    const args = params.arguments ?? {};
    if (!isObject(args)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid tools/call request: arguments must be an object');
    const answer = await deps.runTool(name, args, principal);
    const requestedTtl = modern ? undefined : (params.task as { ttl?: unknown }).ttl;
    const state = deps.service.start(name, principal, answer, typeof requestedTtl === 'number' ? requestedTtl : undefined, !modern);
    // A call the service refused (2026-07-28) is answered as it is today: there is no work to follow.
    if (!state) return answer as Result;
    return (modern ? createdV2(state) : createdV1(state)) as Result;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
