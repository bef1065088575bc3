import type { Principal } from '../../auth/principal.js';
import type { Simulator } from '../../simulator.js';
import type { Page } from '../../store/ordered-collection.js';
import { pruneExpiredTasks, tasksOldestFirst, type McpTaskRecord } from '../../store/mcp-task-records.js';
import { callTool, errorResult, toolError, type EngineCall, type ErrorBody, type ToolResult } from '../tool-call.js';
import type { ToolDefinition } from '../tool-catalog.js';
import { clientReportOf } from '../../client-report/client-report.js';
import { describeBuild, isEnded, suggestedPollMs, type BuildView } from './build-stages.js';

/**
 * MCP tasks over builds: a tool whose work runs on after its answer (an operation that answers
 * 202 with a `buildId`) may run as a task, which then follows that build. Nothing runs in the
 * background: a task's status is read from its build, on the account's clock, each time it is
 * asked for, so it costs nothing while idle and advancing the clock moves it at once.
 *
 * Tasks belong to the account that made them, as records of it: every lookup is within the
 * caller's account, so another account's task id is simply not found, and nothing a task
 * request does costs more than what the caller's own account holds. An account holds at most `maxPerAccount`;
 * ended tasks make room first, and a task is dropped once its lifetime (`ttlMs`, on the account's
 * clock) has passed.
 */
export type TaskStatus = 'working' | 'completed' | 'failed';

export interface TaskState {
  record: McpTaskRecord;
  status: TaskStatus;
  statusMessage: string;
  lastUpdatedAt: number;
  pollIntervalMs?: number;
  /** While working: when the build should end (account's clock, ms). */
  buildEndsAt?: number;
  /** Once ended: what the tool call gives (its answer, or the build's failure as an error result). */
  outcome?: ToolResult;
}

/** The build a task follows could not be read for this caller (not a fact about the task). */
export class TaskReadError extends Error {
  constructor(message: string, readonly body: ErrorBody | undefined) {
    super(message);
  }
}

export const MAX_TASKS_PER_ACCOUNT = 100;
/** Lifetimes, ms on the account's clock: the default, the least (past the build's end), the most. */
export const TASK_TTL = { default: 3_600_000, afterBuild: 600_000, max: 7 * 24 * 3_600_000 } as const;

export interface TaskServiceDeps {
  tools: Map<string, ToolDefinition>;
  engine: EngineCall;
  /** The account's time now, ms. */
  now: (principal: Principal) => number;
  maxPerAccount?: number;
  /** Told of each tasks/get answered (the client report judges its pace). */
  polled?: (principal: Principal, state: TaskState) => void;
}

export class TaskService {
  private readonly getBuild: ToolDefinition;
  readonly taskTools: ReadonlySet<string>;

  constructor(private readonly deps: TaskServiceDeps) {
    const getBuild = deps.tools.get('getBuild');
    if (!getBuild) throw new Error('the contract has no getBuild operation');
    this.getBuild = getBuild;
    this.taskTools = new Set([...deps.tools.values()].filter(startsBuild).map((tool) => tool.name));
  }

  /** Whether the account may start one more task now (ended or expired tasks are let go to make room). */
  makeRoom(principal: Principal): boolean {
    const tasks = this.tasksOf(principal);
    const most = this.deps.maxPerAccount ?? MAX_TASKS_PER_ACCOUNT;
    if (tasks.size < most) return true;
    for (const record of tasksOldestFirst(tasks)) {
      if (this.hasEnded(record, principal)) return tasks.remove(record.id);
    }
    return false;
  }

  /**
   * Runs the tool call and makes its task. A call the service refuses (an error result) makes
   * a task only when `alwaysTask` (a revision whose client expects a task once it asked for
   * one): that task has ended at once, failed.
   */
  start(toolName: string, principal: Principal, answer: ToolResult, requestedTtlMs: number | undefined, alwaysTask: boolean): TaskState | undefined {
    const buildId = (answer.structuredContent as { buildId?: unknown } | undefined)?.buildId;
    if ((answer.isError || typeof buildId !== 'string') && !alwaysTask) return undefined;
    const now = this.deps.now(principal);
    const record: McpTaskRecord = {
      id: crypto.randomUUID(),
      tool: toolName,
      buildId: typeof buildId === 'string' && !answer.isError ? buildId : '',
      answer: answer.isError ? JSON.stringify(toolError(answer) ?? {}) : JSON.stringify(answer.structuredContent),
      createdAt: now,
      ttlMs: TASK_TTL.default,
      cancelRequestedAt: null,
    };
    const state = this.state(record, principal);
    record.ttlMs = lifetime(requestedTtlMs, state, now);
    // A call refused outright is no task to keep: it is answered now and found by nobody later.
    if (record.buildId) principal.account.mcpTasks.add(record);
    return state;
  }

  private hasEnded(record: McpTaskRecord, principal: Principal): boolean {
    try {
      return this.state(record, principal).status !== 'working';
    } catch {
      return false;
    }
  }

  /** A tasks/get answered this state to this caller. */
  polled(principal: Principal, state: TaskState): void {
    this.deps.polled?.(principal, state);
  }

  /** The account's time now, ms. */
  now(principal: Principal): number {
    return this.deps.now(principal);
  }

  /** The caller's own task, or undefined (another account's, expired or never made). */
  find(principal: Principal, taskId: unknown): McpTaskRecord | undefined {
    if (typeof taskId !== 'string') return undefined;
    return this.tasksOf(principal).get(taskId);
  }

  /** A page of the caller's tasks, newest first; `cursor` is the previous page's (throws a 400 ApiError when it is not one). */
  list(principal: Principal, limit: number, cursor: string | undefined): Page<McpTaskRecord> {
    return this.tasksOf(principal).page(limit, cursor);
  }

  /** The caller's own tasks, those whose lifetime has ended let go first. */
  private tasksOf(principal: Principal) {
    const tasks = principal.account.mcpTasks;
    pruneExpiredTasks(tasks, this.deps.now(principal));
    return tasks;
  }

  /** Where the task stands now: read from its build, which the read neither counts nor journals. */
  state(record: McpTaskRecord, principal: Principal): TaskState {
    if (!record.buildId) {
      const refused = errorResult(JSON.parse(record.answer) as Record<string, unknown>);
      return { record, status: 'failed', statusMessage: `The ${record.tool} call was refused: ${toolError(refused)?.error ?? 'see the result'}`, lastUpdatedAt: record.createdAt, outcome: refused };
    }
    const read = callTool(this.getBuild, { buildId: record.buildId }, principal, (request, o) => this.deps.engine(request, { ...o, uncounted: true, unjournaled: true }));
    const error = toolError(read);
    if (read.isError || !read.structuredContent) {
      // Another refusal (a credential without svc:read) says nothing of the task: the caller is told why.
      if (error?.code !== 'NOT_FOUND') throw new TaskReadError(`Build ${record.buildId} cannot be read: ${error?.error ?? 'unknown error'}`, error);
      const message = `Build ${record.buildId} no longer exists (its account was reset).`;
      return { record, status: 'failed', statusMessage: message, lastUpdatedAt: record.createdAt, outcome: read };
    }
    const build = (read.structuredContent as { build: BuildView }).build;
    const cancelNote = record.cancelRequestedAt === null || isEnded(build) ? '' : ' Cancellation was asked, but a build cannot be stopped: this task follows it to its end.';
    const lastUpdatedAt = Math.max(record.createdAt, Date.parse(build.updatedAt));
    const base = { record, statusMessage: describeBuild(build) + cancelNote, lastUpdatedAt };
    if (build.status === 'completed') return { ...base, status: 'completed', outcome: this.answerOf(record) };
    if (build.status === 'failed') {
      const failure = { error: describeBuild(build), code: 'BUILD_FAILED', details: { buildId: record.buildId, failure: build.failure } };
      return { ...base, status: 'failed', outcome: errorResult(failure) };
    }
    return { ...base, status: 'working', pollIntervalMs: suggestedPollMs(build, this.deps.now(principal)), buildEndsAt: Date.parse(build.estimatedCompletionAt) };
  }

  /** The call's own answer, as the tool gave it when the task was made. */
  answerOf(record: McpTaskRecord): ToolResult {
    return { content: [{ type: 'text', text: record.answer }], structuredContent: JSON.parse(record.answer) as Record<string, unknown> };
  }
}

/** A tool whose work runs on after its answer: it answers 202 with a `buildId`, which getBuild follows. */
function startsBuild(tool: ToolDefinition): boolean {
  return tool.operation.statuses.includes(202) && tool.outputSchema !== undefined && JSON.stringify(tool.outputSchema).includes('"buildId"');
}

/** What the client asked, but never shorter than the build plus a margin to read its end, nor past the most. */
function lifetime(requested: number | undefined, state: TaskState, now: number): number {
  const wanted = requested !== undefined && Number.isFinite(requested) && requested > 0 ? Math.round(requested) : TASK_TTL.default;
  const buildLeft = state.buildEndsAt !== undefined && Number.isFinite(state.buildEndsAt) ? Math.max(0, state.buildEndsAt - now) : 0;
  const least = buildLeft + TASK_TTL.afterBuild;
  return Math.min(TASK_TTL.max, Math.max(wanted, least));
}

/** What the tool list says of a tool that may run as a task (2025-11-25; the 2026-07-28 list drops `execution`). */
export function taskListing(tool: ToolDefinition, tasks: TaskService | undefined): { execution?: { taskSupport: 'optional' } } {
  return tasks?.taskTools.has(tool.name) ? { execution: { taskSupport: 'optional' } } : {};
}

/** The task service of a simulator: its accounts' tasks, read on each account's own clock. */
export function createTaskService(simulator: Simulator, tools: Map<string, ToolDefinition>, engine: EngineCall, maxPerAccount?: number): TaskService {
  const report = clientReportOf(simulator.internal);
  return new TaskService({
    tools,
    engine,
    now: (principal) => principal.account.now(simulator.clock.now()),
    polled: (principal, state) => report.taskPolled(principal.account, state.record.id, principal.account.now(simulator.clock.now()), state.status === 'working', state.pollIntervalMs),
    ...(maxPerAccount === undefined ? {} : { maxPerAccount }),
  });
}
