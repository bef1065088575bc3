import fc from 'fast-check';
import { ContractFailure, SkipSignal } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { sequences } from './arbitraries.js';
import type { ModelCommand } from './commands/common.js';
import { finalReads } from './commands/final-reads.js';
import { ApiModel } from './model.js';
import { MODEL_DEFAULTS } from './options.js';
import { openAccounts, retireKeys } from './setup.js';
import { Trace } from './trace.js';
import { OutOfTime, World } from './world.js';

interface FailedSequence {
  error: unknown;
  trace: Trace;
  steps: string[];
  /** The commands that ran, in order, and the final reads that ran after them. */
  ran: ModelCommand[];
  finals: ModelCommand[];
}

export async function runModelPhase(s: Session): Promise<void> {
  const options = s.config.model;
  const controlled = s.control?.accountClocks === true;
  const defaults = controlled ? MODEL_DEFAULTS.simulator : MODEL_DEFAULTS.realService;
  const seed = options.seed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  const budget = options.timeBudgetMs ?? defaults.timeBudgetMs;
  const started = Date.now();
  const generationEnds = Math.min(started + budget, s.budgets.deadline);
  const world = new World(s, started + 2 * budget, await simulatorClock(s));
  const tokens = { spent: 0, allowance: controlled ? Number.POSITIVE_INFINITY : Math.max(0, s.budgets.tokens - s.tokensSpent) };
  if (!controlled && tokens.allowance === 0) s.skipBecause('the token budget is spent, and every sequence spends tokens');
  const mcp = s.strict && (await hasMcp(s));
  // A path printed with a failure is fast-check's path, then (after ~) the replay path of its commands.
  const [path, replayPath] = (options.path ?? '').split('~');
  const arbitrary = sequences({ strict: s.strict, controlled, mcp, purchases: controlled, maxCommands: options.maxCommands ?? defaults.maxCommands, replayPath: replayPath || undefined });

  let sequence = 0;
  let failing = false;
  /** Why sequences stopped before the runs were done (a budget spent), if they did. */
  let stopped: string | undefined;
  let completed = 0;
  let last: FailedSequence | undefined;

  /** Runs one sequence on fresh accounts: undefined when the model agreed with every answer. */
  const runSequence = async (commands: Iterable<ModelCommand>, finals?: ModelCommand[]): Promise<FailedSequence | undefined> => {
    const trace = new Trace();
    world.trace = trace;
    const model = new ApiModel(s.level, controlled, () => world.now(), `${s.config.runId}-m${++sequence}`, tokens);
    const steps: string[] = [];
    const ran: ModelCommand[] = [];
    const finalsRan: ModelCommand[] = [];
    try {
      await openAccounts(model, world);
      const traced = [...commands].map((c) => ({
        check: (m: ApiModel) => c.check(m),
        run: async (m: ApiModel, w: World) => {
          ran.push(c);
          steps.push(c.toString());
          trace.step(`${steps.length}. ${c.toString()}`);
          await c.run(m, w);
        },
        toString: () => c.toString(),
      }));
      await fc.asyncModelRun(() => ({ model, real: world }), traced);
      // Every sequence ends by reading back what the model holds, so a wrong state shows whatever the last call was.
      for (const c of finals ?? finalReads(model, mcp)) {
        if (!c.check(model)) continue;
        finalsRan.push(c);
        steps.push(`finally ${c.toString()}`);
        trace.step(`finally ${c.toString()}`);
        await c.run(model, world);
      }
      return undefined;
    } catch (error) {
      return { error, trace, steps, ran, finals: finalsRan };
    } finally {
      await retireKeys(model, world);
    }
  };

  const property = fc.asyncProperty(arbitrary, async (commands) => {
    // Past the budget, new sequences are not tried; a failure's shrinking goes on.
    if (!failing && (stopped !== undefined || Date.now() > generationEnds)) return;
    const failed = await runSequence(commands);
    if (!failed) return void completed++;
    // A budget spent (time, requests) ends the phase; it is no failure of the server.
    if (failed.error instanceof OutOfTime || failed.error instanceof SkipSignal) {
      stopped ??= failed.error instanceof SkipSignal ? failed.error.reason : failed.error.message;
      return;
    }
    failing = true;
    last = failed;
    throw failed.error;
  });
  const details = await fc.check(property, {
    seed,
    path: path || undefined,
    numRuns: options.runs ?? defaults.runs,
    interruptAfterTimeLimit: 2 * budget,
    markInterruptAsFailure: false,
  });
  if (!controlled) s.tokensSpent += tokens.spent;
  if (!details.failed || !last) {
    if (completed === 0 && stopped) s.skipBecause(`no sequence could finish: ${stopped}`);
    return;
  }
  const shortest = await withoutNeedlessSteps(last, runSequence, started + 2 * budget);
  const commandsReplay = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0] ?? ''))?.[1];
  const fullPath = details.counterexamplePath && commandsReplay ? `${details.counterexamplePath}~${commandsReplay}` : details.counterexamplePath;
  throw new ContractFailure(report(s, seed, { ...details, counterexamplePath: fullPath }, shortest));
}

/**
 * fast-check shrinks a sequence by cutting it and simplifying its commands; this pass then
 * drops each remaining command in turn while the sequence still breaks the same rule, so
 * the reproduction keeps only the calls that matter.
 */
async function withoutNeedlessSteps(
  failed: FailedSequence,
  run: (commands: ModelCommand[], finals: ModelCommand[] | undefined) => Promise<FailedSequence | undefined>,
  deadline: number,
): Promise<FailedSequence> {
  const rule = (f: FailedSequence) => (f.error instanceof Error ? f.error.message : String(f.error)).split('\n')[0];
  const keeps = (f: FailedSequence | undefined): f is FailedSequence => f !== undefined && !(f.error instanceof OutOfTime || f.error instanceof SkipSignal) && rule(f) === rule(failed);
  let best = failed;
  for (let i = 0; i < best.ran.length && Date.now() < deadline; ) {
    // Final reads that never ran (the failure came before them) are made afresh.
    const candidate = await run(best.ran.filter((_, j) => j !== i), best.finals.length ? best.finals : undefined);
    if (keeps(candidate)) best = candidate;
    else i++;
  }
  // The final reads before the one that failed, each in turn.
  for (let i = 0; i < best.finals.length - 1 && Date.now() < deadline; ) {
    const candidate = await run(best.ran, best.finals.filter((_, j) => j !== i));
    if (keeps(candidate)) best = candidate;
    else i++;
  }
  return best;
}

function report(s: Session, seed: number, details: { numRuns: number; numShrinks: number; counterexamplePath: string | null }, failed: FailedSequence): string {
  const error = failed.error instanceof Error ? failed.error.message : String(failed.error);
  const replay = `--model-seed ${seed}${details.counterexamplePath ? ` --model-path '${details.counterexamplePath}'` : ''}`;
  const script = failed.trace.script(
    [
      `content-contracts model-based phase: a shortest sequence that breaks a rule (${s.level} level).`,
      `Seed ${seed}; replay the phase with: content-contracts --base-url <url> --level ${s.level} ${replay}`,
      `Run it: BASE_URL=${s.config.baseUrl} node repro.mjs`,
    ],
    `Broken: ${error}`,
  );
  return [
    error,
    `    found by the model-based phase (seed ${seed}, ${details.numRuns} sequence(s) tried, ${details.numShrinks} shrink step(s)); replay: ${replay}`,
    `    the shortest sequence found (${failed.steps.length} step(s), ${failed.trace.length} call(s)):`,
    ...failed.steps.map((step, i) => `      ${i + 1}. ${step}`),
    '    reproduction (save as repro.mjs):',
    ...script.split('\n').map((line) => `      ${line}`),
  ].join('\n');
}

/** The simulator's own clock (what answers tied to no account go by), read once. */
async function simulatorClock(s: Session): Promise<{ nowMs: number; frozen: boolean; readAt: number }> {
  const fallback = { nowMs: Date.now(), frozen: false, readAt: Date.now() };
  if (!s.control) return fallback;
  const token = process.env.CONTRACT_CONTROL_TOKEN;
  const response = await s.client.raw('/_sim', { headers: { accept: 'application/json', ...(token ? { 'x-control-token': token } : {}) } });
  const info = await response.json().catch(() => undefined);
  return typeof info?.clock?.nowMs === 'number' ? { nowMs: info.clock.nowMs, frozen: info.clock.frozen === true, readAt: Date.now() } : fallback;
}

/** Whether /mcp answers an API key (the MCP commands are left out when it does not). */
async function hasMcp(s: Session): Promise<boolean> {
  const key = s.keys.readWrite;
  if (!key) return false;
  const response = await s.client.raw('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${key}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'content-contracts-model', version: '1' } } }),
  });
  await response.arrayBuffer();
  return response.status === 200;
}
