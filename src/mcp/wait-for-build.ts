import type { Principal } from '../auth/principal.js';
import { callTool, type EngineCall, type ToolResult } from './tool-call.js';
import type { ToolDefinition } from './tool-catalog.js';

/**
 * `waitForBuild`: follows a build to its end and reports each stage as MCP progress, so an
 * assistant need not poll blindly. It reads the build through `getBuild`; the first read
 * counts in the rate limits like one REST poll, the follow-up reads do not. Stages move on
 * the simulator's clock: advancing it (`/_sim/clock/advance`) ends the wait at once.
 */
export const STAGES = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed'] as const;
const TERMINAL = new Set(['completed', 'failed']);

export interface WaitOptions {
  tools: Map<string, ToolDefinition>;
  engine: EngineCall;
  principal: Principal | undefined;
  /** Real milliseconds between reads of the build. */
  pollMs: number;
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
        'Waits until the build is completed or failed, sending notifications/progress at each stage (pending, researching, drafting, critiquing, merging, completed), then answers what getBuild answers. Send a progressToken in _meta to receive the stages. Stops waiting after timeoutSeconds and answers the build as it then is.',
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

  const deadline = performance.now() + (timeout as number) * 1000;
  let reported = '';
  let result = callTool(getBuild, { buildId: args.buildId }, options.principal, options.engine);
  for (;;) {
    if (result.isError) return result;
    const status = (result.structuredContent as { build: { status: string } }).build.status;
    if (status !== reported) {
      reported = status;
      const reached = STAGES.indexOf(status as (typeof STAGES)[number]);
      await options.notify?.(reached === -1 ? STAGES.length - 1 : reached, STAGES.length - 1, status);
    }
    if (TERMINAL.has(status)) return result;
    if (performance.now() >= deadline || options.signal?.aborted) {
      return { ...result, content: [...result.content, { type: 'text', text: `The build is still ${status} after ${String(timeout)} s of waiting.` }] };
    }
    await sleep(options.pollMs, options.signal);
    result = callTool(getBuild, { buildId: args.buildId }, options.principal, (request, o) => options.engine(request, { ...o, uncounted: true }));
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
