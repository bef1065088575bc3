import { CLIENT_CAPABILITIES_META_KEY, MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Principal } from '../../auth/principal.js';
import { ApiError } from '../../errors/api-error.js';
import type { WaitSlots } from '../wait-for-build.js';
import { TaskReadError, type TaskService, type TaskState } from './task-service.js';
import { resultV1, TASKS_EXTENSION, taskV1, taskV2 } from './task-wire.js';

/**
 * `tasks/*` as each revision has them. 2025-11-25: get, result (blocks until the build ends),
 * list (the caller's own tasks), and no cancel. 2026-07-28 (the extension): get, update and
 * cancel, each refused (-32021) to a request that does not declare the extension.
 *
 * Cancellation: a build cannot be stopped (the API has no way to), so a task never pretends to
 * be cancelled. On 2025-11-25, whose `tasks/cancel` must leave the task `cancelled`, the server
 * does not declare `tasks.cancel` and answers the method as not found; on 2026-07-28, where
 * cancelling is cooperative, the request is acknowledged and the task follows its build to its
 * end, its status message saying so.
 */
export const TASK_CAPABILITIES = {
  tasks: { list: {}, requests: { tools: { call: {} } } },
  extensions: { [TASKS_EXTENSION]: {} },
};

export interface TaskHandlerDeps {
  service: TaskService;
  principalOf: (ctx: ServerContext) => Principal | undefined;
  /** Open blocking reads per account (tasks/result counts like a waitForBuild). */
  slots?: WaitSlots;
  /** Real ms between the first two reads of a blocking tasks/result; later pauses grow to 2 s. */
  pollMs: number;
}

const TaskIdParams = z.looseObject({ taskId: z.string({ error: 'must be a string: the id of a task' }) });
const UpdateParams = z.looseObject({ taskId: z.string({ error: 'must be a string: the id of a task' }), inputResponses: z.record(z.string(), z.unknown()).optional() });
const ListParams = z.looseObject({ cursor: z.string({ error: 'must be a string: a cursor from tasks/list' }).optional() });
const PAGE = 50;

/** Whether the server answers this exchange on the 2026-07-28 revision. */
export function servesModern(server: Server): boolean {
  const version = server.getNegotiatedProtocolVersion();
  return version !== undefined && version >= '2026-07-28';
}

/** Whether this request declares the tasks extension in its own client capabilities (2026-07-28). */
export function declaresTasks(ctx: ServerContext): boolean {
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

export function registerTaskHandlers(server: Server, deps: TaskHandlerDeps): void {
  const { service } = deps;
  /** The caller and its own task, or the spec's refusals: capability missing (2026), task not found. */
  const own = (taskId: string, ctx: ServerContext) => {
    if (servesModern(server) && !declaresTasks(ctx)) {
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } }, 'Missing required client capability: declare the io.modelcontextprotocol/tasks extension');
    }
    const principal = deps.principalOf(ctx);
    const record = principal ? service.find(principal, taskId) : undefined;
    if (!principal || !record) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found', { taskId });
    return { principal, record };
  };
  const read = (taskId: string, ctx: ServerContext): TaskState => {
    const { principal, record } = own(taskId, ctx);
    try {
      return service.state(record, principal);
    } catch (error) {
      if (error instanceof TaskReadError) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, error.message, error.body ?? {});
      throw error;
    }
  };
  const onlyOn = (modern: boolean, method: string) => {
    if (servesModern(server) !== modern) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${method} is not part of protocol revision ${server.getNegotiatedProtocolVersion() ?? 'negotiated here'}`);
  };

  server.setRequestHandler('tasks/get', { params: TaskIdParams }, (params, ctx) => {
    const state = read(params.taskId, ctx);
    const principal = deps.principalOf(ctx);
    if (principal) service.polled(principal, state);
    return servesModern(server) ? taskV2(state) : taskV1(state);
  });

  server.setRequestHandler('tasks/result', { params: TaskIdParams }, async (params, ctx) => {
    onlyOn(false, 'tasks/result');
    const { principal } = own(params.taskId, ctx);
    const accountId = principal.account.id;
    if (deps.slots && !deps.slots.take(accountId)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `This account already has ${deps.slots.perAccount} blocking reads open (waitForBuild, tasks/result), the most it may: poll with tasks/get instead.`);
    }
    try {
      let pause = deps.pollMs;
      for (;;) {
        const state = read(params.taskId, ctx);
        if (state.outcome) return resultV1(state);
        if (ctx.mcpReq.signal.aborted) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The request was cancelled before the task ended.');
        await sleep(pause, ctx.mcpReq.signal);
        pause = Math.min(2000, Math.ceil(pause * 1.5));
      }
    } finally {
      deps.slots?.release(accountId);
    }
  });

  server.setRequestHandler('tasks/list', { params: ListParams }, (params, ctx) => {
    onlyOn(false, 'tasks/list');
    const principal = deps.principalOf(ctx);
    if (!principal) return { tasks: [] };
    let page;
    try {
      // Newest first, a page at a time from the account's own tasks: what it costs is the page's.
      page = service.list(principal, PAGE, params.cursor);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: it names no task of this account (it may have expired).');
    }
    const tasks = page.data.flatMap((record) => {
      try {
        return [taskV1(service.state(record, principal))];
      } catch {
        return [];
      }
    });
    return { tasks, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, (params, ctx) => {
    if (!servesModern(server)) {
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found: builds cannot be stopped, so this server does not offer tasks/cancel (capabilities.tasks.cancel is absent); the task follows its build to its end.');
    }
    const { record, principal } = own(params.taskId, ctx);
    // Acknowledged, as the extension asks; the build goes on, and the task with it.
    if (record.cancelRequestedAt === null) record.cancelRequestedAt = service.now(principal);
    return {};
  });

  server.setRequestHandler('tasks/update', { params: UpdateParams }, (params, ctx) => {
    onlyOn(true, 'tasks/update');
    // No task here ever waits for input: responses to requests it never made are ignored, as the extension says.
    own(params.taskId, ctx);
    return {};
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
