import type { Principal } from '../auth/principal.js';
import { BUILD_STAGES, stageIndex, stagesReached, type BuildView } from './tasks/build-stages.js';
import { callTool, type EngineCall, type ToolResult } from './tool-call.js';
import type { ToolDefinition } from './tool-catalog.js';

/**
 * `waitForBuild`: follows a build to its end and reports each stage as MCP progress, so an
 * assistant need not poll blindly. It reads the build through `getBuild`; the first read
 * counts in the rate limits and the journal like one REST poll, the follow-up reads do
 * neither, and come further apart as the wait goes on (from `pollMs` up to `maxPollMs`). An
 * account has at most `MAX_WAITS_PER_ACCOUNT` waits open at once, so however many one
 * account opens, another's cost it nothing. Stages move on the simulator's clock: advancing
 * it (`/_sim/clock/advance`) ends the wait at its next read.
 */
export const STAGES = BUILD_STAGES;
const TERMINAL = new Set(['completed', 'failed']);
/** Waits one account may have open at once. */
export const MAX_WAITS_PER_ACCOUNT = 10;
/** The longest pause between two reads of one wait, in real milliseconds. */
export const MAX_POLL_MS = 2000;
/** Each pause is this much longer than the one before, up to the longest. */
const BACKOFF = 1.5;

/** How many waits each account has open: a wait takes a slot for its whole length. */
export class WaitSlots {
  private readonly open = new Map<string, number>();

  constructor(readonly perAccount = MAX_WAITS_PER_ACCOUNT) {}

  take(accountId: string): boolean {
    const held = this.open.get(accountId) ?? 0;
    if (held >= this.perAccount) return false;
    this.open.set(accountId, held + 1);
    return true;
  }

  release(accountId: string): void {
    const held = (this.open.get(accountId) ?? 1) - 1;
    if (held <= 0) this.open.delete(accountId);
    else this.open.set(accountId, held);
  }
}

export interface WaitOptions {
  tools: Map<string, ToolDefinition>;
  engine: EngineCall;
  principal: Principal | undefined;
  /** Real milliseconds between the first two reads of the build; later pauses grow. */
  pollMs: number;
  /** The longest pause between two reads (default MAX_POLL_MS). */
  maxPollMs?: number;
  /** Open waits per account; none: unlimited (an in-process caller's own choice). */
  slots?: WaitSlots;
  /** The longest wait a call may ask for, in real seconds. */
  maxTimeoutSeconds: number;
  signal?: AbortSignal;
  notify?: (progress: number, total: number, message: string) => Promise<void>;
}

export const WAIT_FOR_BUILD = {
  name: 'waitForBuild',
  listing(tools: Map<string, ToolDefinition>) {
    const getBuild = tools.get('getBuild');
    return {
      name: 'waitForBuild',
      title: 'Wait for a build to end',
      description:
        `Waits until the build is completed or failed, sending notifications/progress at each stage (pending, researching, drafting, critiquing, merging, completed), then answers what getBuild answers. Send a progressToken in _meta to receive the stages. Stops waiting after timeoutSeconds and answers the build as it then is. An account may have ${MAX_WAITS_PER_ACCOUNT} waits open at once.`,
      inputSchema: {
        type: 'object' as const,
        properties: {
          buildId: { type: 'string', format: 'uuid', description: 'The build to follow.' },
          timeoutSeconds: { type: 'integer', minimum: 1, maximum: 3600, default: 600, description: 'Real seconds to wait at most.' },
        },
        required: ['buildId'],
        additionalProperties: false,
      },
      ...(getBuild?.outputSchema ? { outputSchema: getBuild.outputSchema } : {}),
      annotations: { title: 'Wait for a build to end', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    };
  },
};

export async function waitForBuild(args: Record<string, unknown>, options: WaitOptions): Promise<ToolResult> {
  const getBuild = options.tools.get('getBuild');
  if (!getBuild) throw new Error('the contract has no getBuild operation');
  const timeout = args.timeoutSeconds ?? 600;
  const problems = [];
  if (typeof args.buildId !== 'string') problems.push({ path: 'buildId', message: 'is required: the id of a build' });
  if (!Number.isInteger(timeout) || (timeout as number) < 1 || (timeout as number) > options.maxTimeoutSeconds) {
    problems.push({ path: 'timeoutSeconds', message: `must be a whole number of seconds from 1 to ${options.maxTimeoutSeconds}` });
  }
  const unknown = Object.keys(args).filter((name) => name !== 'buildId' && name !== 'timeoutSeconds');
  for (const name of unknown) problems.push({ path: name, message: 'is not an argument of this tool' });
  if (problems.length) {
    const error = { error: 'The tool arguments are not valid.', code: 'VALIDATION_ERROR', details: { fields: problems } };
    return { content: [{ type: 'text', text: JSON.stringify(error) }], structuredContent: error, isError: true };
  }

  const accountId = options.principal?.account.id;
  if (accountId !== undefined && options.slots && !options.slots.take(accountId)) return tooManyWaits(options.slots.perAccount);
  try {
    return await follow(getBuild, args.buildId as string, timeout as number, options);
  } finally {
    if (accountId !== undefined) options.slots?.release(accountId);
  }
}

async function follow(getBuild: ToolDefinition, buildId: string, timeout: number, options: WaitOptions): Promise<ToolResult> {
  const deadline = performance.now() + timeout * 1000;
  const longest = Math.max(options.pollMs, options.maxPollMs ?? MAX_POLL_MS);
  let pause = options.pollMs;
  let reported = 0;
  let result = callTool(getBuild, { buildId }, options.principal, options.engine);
  for (;;) {
    if (result.isError) return result;
    const build = (result.structuredContent as { build: BuildView }).build;
    const { status } = build;
    // Every stage the schedule passed through since the last read, not only the one it is in now.
    const reached = stagesReached(build);
    for (; reported < reached.length; reported++) {
      const stage = reached[reported] as string;
      await options.notify?.(stageIndex(stage), STAGES.length - 1, stage);
    }
    if (TERMINAL.has(status)) return result;
    if (performance.now() >= deadline || options.signal?.aborted) {
      return { ...result, content: [...result.content, { type: 'text', text: `The build is still ${status} after ${String(timeout)} s of waiting.` }] };
    }
    await sleep(Math.min(pause, Math.max(0, deadline - performance.now())), options.signal);
    pause = Math.min(longest, Math.ceil(pause * BACKOFF));
    result = callTool(getBuild, { buildId }, options.principal, (request, o) => options.engine(request, { ...o, uncounted: true, unjournaled: true }));
  }
}

function tooManyWaits(limit: number): ToolResult {
  const retryAfterSeconds = 5;
  const error = {
    error: `This account already has ${limit} waitForBuild calls open, the most it may: let one end, or read the build with getBuild.`,
    code: 'RATE_LIMITED',
    details: { limit, retryAfterSeconds },
  };
  return { content: [{ type: 'text', text: JSON.stringify(error) }], structuredContent: error, isError: true };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
