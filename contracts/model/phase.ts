import fc from 'fast-check';
import { ContractFailure, SkipSignal } from '../lib/outcomes.js';
import type { Session } from '../lib/session.js';
import { sequences } from './arbitraries.js';
import { finalReads } from './commands/final-reads.js';
import { ApiModel } from './model.js';
import { MODEL_DEFAULTS } from './options.js';
import { openAccounts } from './setup.js';
import { Trace } from './trace.js';
import { OutOfTime, World } from './world.js';

interface FailedSequence {
  error: unknown;
  trace: Trace;
  steps: string[];
}

export async function runModelPhase(s: Session): Promise<void> {
  const options = s.config.model;
  const controlled = s.control !== null;
  const defaults = controlled ? MODEL_DEFAULTS.simulator : MODEL_DEFAULTS.realService;
  const seed = options.seed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  const budget = options.timeBudgetMs ?? defaults.timeBudgetMs;
  const started = Date.now();
  const generationEnds = Math.min(started + budget, s.budgets.deadline);
  const world = new World(s, started + 2 * budget, await simulatorClock(s));
  const tokens = { spent: 0, allowance: controlled ? Number.POSITIVE_INFINITY : Math.max(0, s.budgets.tokens - s.tokensSpent) };
  if (!controlled && tokens.allowance === 0) s.skipBecause('the token budget is spent, and every sequence spends tokens');
  const mcp = s.strict && (await hasMcp(s));
  const arbitrary = sequences({ strict: s.strict, controlled, mcp, purchases: controlled, maxCommands: options.maxCommands ?? defaults.maxCommands });

  let sequence = 0;
  let failing = false;
  /** Why sequences stopped before the runs were done (a budget spent), if they did. */
  let stopped: string | undefined;
  let completed = 0;
  let last: FailedSequence | undefined;
  const property = fc.asyncProperty(arbitrary, async (commands) => {
    // Past the budget, new sequences are not tried; a failure's shrinking goes on.
    if (!failing && (stopped !== undefined || Date.now() > generationEnds)) return;
    const trace = new Trace();
    world.trace = trace;
    const model = new ApiModel(s.level, controlled, () => world.now(), `${s.config.runId}-m${++sequence}`, tokens);
    const steps: string[] = [];
    try {
      await openAccounts(model, world);
      const traced = [...commands].map((c) => ({
        check: (m: ApiModel) => c.check(m),
        run: async (m: ApiModel, w: World) => {
          steps.push(c.toString());
          trace.step(`${steps.length}. ${c.toString()}`);
          await c.run(m, w);
        },
        toString: () => c.toString(),
      }));
      await fc.asyncModelRun(() => ({ model, real: world }), traced);
      // Every sequence ends by reading back what the model holds, so a wrong state shows whatever the last call was.
      for (const c of finalReads(model)) {
        steps.push(`finally ${c.toString()}`);
        trace.step(`finally ${c.toString()}`);
        await c.run(model, world);
      }
      completed++;
    } catch (error) {
      // A budget spent (time, requests) ends the phase; it is no failure of the server.
      if (error instanceof OutOfTime || error instanceof SkipSignal) {
        stopped ??= error instanceof SkipSignal ? error.reason : error.message;
        return;
      }
      failing = true;
      last = { error, trace, steps };
      throw error;
    }
  });
  const details = await fc.check(property, {
    seed,
    path: options.path,
    numRuns: options.runs ?? defaults.runs,
    interruptAfterTimeLimit: 2 * budget,
    markInterruptAsFailure: false,
  });
  if (!controlled) s.tokensSpent += tokens.spent;
  if (!details.failed || !last) {
    if (completed === 0 && stopped) s.skipBecause(`no sequence could finish: ${stopped}`);
    return;
  }
  throw new ContractFailure(report(s, seed, details, last));
}

function report(s: Session, seed: number, details: { numRuns: number; numShrinks: number; counterexamplePath: string | null }, failed: FailedSequence): string {
  const error = failed.error instanceof Error ? failed.error.message : String(failed.error);
  const replay = `--model-seed ${seed}${details.counterexamplePath ? ` --model-path ${details.counterexamplePath}` : ''}`;
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
