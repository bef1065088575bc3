import type { ToolResult } from '../tool-call.js';
import type { TaskState } from './task-service.js';

/**
 * A task as each protocol revision spells it. 2025-11-25 (experimental tasks): `ttl` and
 * `pollInterval`, the task nested under `task` when it is made, the result fetched apart with
 * `tasks/result`. 2026-07-28 (the `io.modelcontextprotocol/tasks` extension): `ttlMs` and
 * `pollIntervalMs`, flat, with the result or error inlined once the task has ended.
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** What a 2025-era host may hand the model at once while the task runs (the spec's provisional key). */
const IMMEDIATE_RESPONSE = 'io.modelcontextprotocol/model-immediate-response';

const iso = (ms: number) => new Date(ms).toISOString();

/** 2025-11-25 `Task`. */
export function taskV1(state: TaskState): Record<string, unknown> {
  const { record } = state;
  return {
    taskId: record.id,
    status: state.status,
    statusMessage: state.statusMessage,
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(state.lastUpdatedAt),
    ttl: record.ttlMs,
    ...(state.pollIntervalMs === undefined ? {} : { pollInterval: state.pollIntervalMs }),
  };
}

/** 2025-11-25 `CreateTaskResult`. */
export function createdV1(state: TaskState): Record<string, unknown> {
  return {
    task: taskV1(state),
    _meta: { [IMMEDIATE_RESPONSE]: `${state.statusMessage} The result comes when the build ends (tasks/result).` },
  };
}

/** 2025-11-25 `tasks/result`: the tool call's own result, tied to its task. */
export function resultV1(state: TaskState): Record<string, unknown> {
  const outcome = state.outcome as ToolResult;
  return { ...withoutStructuredOnError(outcome), _meta: { [RELATED_TASK]: { taskId: state.record.id } } };
}

/** 2026-07-28 `Task` (a `DetailedTask` once ended: the result inlined). */
export function taskV2(state: TaskState): Record<string, unknown> {
  const { record } = state;
  // The extension keeps `failed` for JSON-RPC errors; a build that failed is the tool's own error.
  const status = state.status === 'failed' ? 'completed' : state.status;
  return {
    taskId: record.id,
    status,
    statusMessage: state.statusMessage,
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(state.lastUpdatedAt),
    ttlMs: record.ttlMs,
    ...(state.pollIntervalMs === undefined ? {} : { pollIntervalMs: state.pollIntervalMs }),
    // The inlined result is a 2026-07-28 `CallToolResult`, discriminator included.
    ...(state.outcome ? { result: { ...withoutStructuredOnError(state.outcome), resultType: 'complete' } } : {}),
  };
}

/** 2026-07-28 `CreateTaskResult`: the task without its outcome, marked as a task. */
export function createdV2(state: TaskState): Record<string, unknown> {
  const { result: _inlinedLater, ...task } = taskV2(state);
  return { resultType: 'task', ...task };
}

/** An error result goes out without `structuredContent`, as every tool's does. */
function withoutStructuredOnError(result: ToolResult): ToolResult {
  if (!result.isError) return result;
  const { structuredContent: _dropped, ...rest } = result;
  return rest;
}
