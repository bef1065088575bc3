import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../contracts/suite/config.js';
import { SuiteRun, type CheckResult } from '../contracts/suite/runner.js';
import { ConcurrentFirsts, CreateBuild } from '../contracts/suite/model/commands/builds.js';
import { ApiModel } from '../contracts/suite/model/model.js';
import { openAccounts } from '../contracts/suite/model/setup.js';
import { World } from '../contracts/suite/model/world.js';
import { repeatRun } from './support/once.js';
import { startLatencyProxy, withLatency } from './support/latency-proxy.js';
import { serveOnLoopback, simulatorUnderTest, type TestTarget } from './violations/violated-simulator.js';

const BASE = 'http://simulator.in-process';
type Fetch = TestTarget['fetch'];

/** The model phase alone, through `fetchImpl`: its result and how many calls it made. */
async function modelPhase(fetchImpl: Fetch | undefined, env: Record<string, string>): Promise<{ result: CheckResult; requests: number }> {
  const run = await SuiteRun.open(configFromEnv({ CONTRACT_BASE_URL: BASE, CONTRACT_LEVEL: 'strict', ...env }), fetchImpl);
  const check = run.checks.find((c) => c.id === 'model-based.sequences');
  if (!check) throw new Error('the suite has no model phase');
  const result = await run.run(check);
  await run.finish();
  return { result, requests: run.session.client.requests };
}

/** What a call waits for before it goes to the server, and before its answer comes back. */
interface Hold {
  before?: Promise<unknown>;
  /** Told once the server has answered (before the answer is held). */
  handled?: () => void;
  after?: Promise<unknown>;
  /** Told once the answer has come back. */
  answered?: () => void;
}

/** A fetch that holds calls as `hold` says (by method and path), the order of events made certain. */
function holding(fetchImpl: Fetch, hold: (call: string) => Hold): Fetch {
  return async (input, init) => {
    const { before, handled, after, answered } = hold(`${init?.method ?? 'GET'} ${new URL(input).pathname}`);
    await before;
    const response = await fetchImpl(input, init);
    const body = await response.arrayBuffer();
    handled?.();
    await after;
    answered?.();
    return new Response(response.status === 204 ? null : body, { status: response.status, headers: response.headers });
  };
}

/** A promise and its resolver. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A sequence on fresh accounts (the phase's set-up) that spends the build window of account A:
 * `used` creations under one key (one build, then replays), then three first calls at once.
 */
async function spendWindowThenConcurrent(fetchImpl: Fetch, used: number): Promise<string | undefined> {
  const run = await SuiteRun.open(configFromEnv({ CONTRACT_BASE_URL: BASE, CONTRACT_LEVEL: 'strict', CONTRACT_RUN_ID: 'latency' }), fetchImpl);
  try {
    const info = await (await fetchImpl(`${BASE}/_sim`)).json();
    const world = new World(run.session, Date.now() + 60_000, { nowMs: info.clock.nowMs, frozen: info.clock.frozen, readAt: Date.now() });
    const model = new ApiModel('strict', true, () => world.now(), 'latency-m1', { spent: 0, allowance: Number.POSITIVE_INFINITY });
    await openAccounts(model, world);
    const reuse = new CreateBuild('A', 0, false, { mode: 'reuse', n: 0, sameBody: true }, { kind: 'blog' }, 'rest');
    const commands = [new CreateBuild('A', 0, false, { mode: 'fresh' }, { kind: 'blog' }, 'rest'), ...Array.from({ length: used - 1 }, () => reuse), new ConcurrentFirsts('A', 0, 3)];
    for (const command of commands) await command.run(model, world);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await run.finish();
  }
}

describe('the model phase behind a proxy that adds latency', () => {
  it('judges an answer that came while the clocks were moving by the time the server may have made it', async () => {
    // One call left in the window: one of three first calls takes it, one is refused with 429 and
    // moves the clocks past the reset, and the third, held on its way, reaches the server after
    // the move and comes back before the move is acknowledged (its Reset is a window later).
    let builds = 0;
    const moved = signal();
    const lateAnswer = signal();
    const target = simulatorUnderTest();
    const fetchImpl = holding(target.fetch, (call) => {
      if (call === 'POST /api/v1/builds' && ++builds === 12) return { before: moved.promise, answered: lateAnswer.resolve };
      if (call.endsWith('/clock/advance')) return { handled: moved.resolve, after: lateAnswer.promise };
      return {};
    });
    expect(await spendWindowThenConcurrent(fetchImpl, 9)).toBeUndefined();
    expect(builds, 'the three first calls and the one the rate limit held back were sent').toBe(13);
  });

  it('moves the clocks once for calls sent at once that wait for the same reset', async () => {
    // The window is spent: the three first calls each wait for its reset; the moves' answers come late.
    const target = simulatorUnderTest();
    const advances: number[] = [];
    const watched: Fetch = async (input, init) => {
      if (new URL(input).pathname.endsWith('/clock/advance')) advances.push(JSON.parse(String(init?.body)).ms);
      return target.fetch(input, init);
    };
    expect(await spendWindowThenConcurrent(holding(watched, (call) => (call.endsWith('/clock/advance') ? { after: new Promise((resolve) => setTimeout(resolve, 40)) } : {})), 10)).toBeUndefined();
    expect(advances.length, 'one move of the two accounts\' clocks').toBe(2);
  });
});

/** Seeds of the jittered runs: `CONTRACT_LATENCY_SEEDS` of them (100 with `npm run test:latency`). */
const SEEDS = Number(process.env.CONTRACT_LATENCY_SEEDS ?? 30);

// The same on every Node (timing, not the runtime, is what varies): CI's first pass only.
describe.skipIf(repeatRun)('the model phase over many seeds through a jittering proxy (5 to 50 ms each way)', () => {
  it(`finds nothing wrong with the simulator over ${SEEDS} seeds`, async () => {
    const started = Date.now();
    const failures: string[] = [];
    let next = 0;
    let requests = 0;
    // Seeds run side by side (their time is mostly latency), each on an account pair of its own.
    const target = simulatorUnderTest();
    const worker = async () => {
      for (let i = next++; i < SEEDS; i = next++) {
        const fetchImpl = withLatency(target.fetch, { minMs: 5, maxMs: 50, seed: 1000 + i });
        const { result, requests: made } = await modelPhase(fetchImpl, { CONTRACT_RUN_ID: `latency-${i}`, CONTRACT_MODEL_SEED: String(7000 + i), CONTRACT_MODEL_RUNS: '6', CONTRACT_MODEL_COMMANDS: '20' });
        requests += made;
        if (result.status !== 'passed') failures.push(`model seed ${7000 + i}, jitter seed ${1000 + i}: ${result.status} ${result.message ?? ''}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEEDS, 16) }, worker));
    console.log(`model phase through 5-50 ms of jitter: ${SEEDS} seeds, ${requests} calls, ${Math.round((Date.now() - started) / 1000)} s`);
    expect(failures).toEqual([]);
    expect(requests / SEEDS, 'each seed ran real sequences').toBeGreaterThan(60);
  }, 600_000);

  it('passes through a real loopback proxy in front of a loopback server', async () => {
    const server = await serveOnLoopback(simulatorUnderTest());
    const proxy = await startLatencyProxy(server.baseUrl, { minMs: 5, maxMs: 50, seed: 3 });
    try {
      const { result } = await modelPhase(undefined, { CONTRACT_BASE_URL: proxy.url, CONTRACT_RUN_ID: 'latency-proxy', CONTRACT_MODEL_SEED: '1466500700', CONTRACT_MODEL_RUNS: '8' });
      expect(result.message ?? '').toBe('');
      expect(result.status).toBe('passed');
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 120_000);
});
