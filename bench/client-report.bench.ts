/**
 * What the client report costs the request path: the engine in-process with the report on (the
 * default) and off (`clientRulesOff`: every rule), beside a second simulator with it off (the
 * machine's noise, against which the report's cost is to be read): reads of a build (each judged
 * as a poll, and flagged: the costliest read), reads of the balance (the common case) and
 * creations with a fresh Idempotency-Key each, in µs per call, medians over rounds, of wall time
 * and of the process's CPU time (less disturbed by other processes on a shared machine).
 *
 * Fair to each side: the three sides share one process (one JIT, warmed alike) and each round
 * gives them the same treatment. A round makes three fresh simulators (the store does not grow
 * round after round), and times each side twice per case, in an order and its reverse (A B C C B
 * A), the first side turning with the round: every side holds every position alike, and a side's
 * figure for the round is the mean of its two; 200 untimed calls of each kind first on each
 * fresh simulator (its first calls recompile the engine). Before each timed run a full collection, so that
 * no run pays for the garbage of the one before it: otherwise the run after the creations pays
 * their major collection (half again the instructions of a build read, in a Callgrind count), and
 * whichever side holds that place more often looks the slower.
 *
 *   node --expose-gc --import tsx bench/client-report.bench.ts    # BENCH_ROUNDS=9, BENCH_CALLS=10000, BENCH_CREATE_OPS=2500
 */
import { ClientReport } from '../src/client-report/client-report.js';
import { RULE_IDS } from '../src/client-report/rules.js';
import type { ExchangeFacts } from '../src/engine/engine-hooks.js';
import type { EngineRequest, EngineResponse } from '../src/engine/types.js';
import { createSimulator } from '../src/simulator.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CALLS = Number(process.env.BENCH_CALLS ?? 10_000);
const CREATE_OPS = Number(process.env.BENCH_CREATE_OPS ?? 2_500);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const unlimited = { perKey: { default: 1e12, 'build-create': 1e12, generation: 1e12 }, perUser: 1e12 };

function setup(report: boolean) {
  const sim = createSimulator({ frozenAt: '2026-03-02T09:00:00Z', rateLimits: unlimited, ...(report ? {} : { clientRulesOff: RULE_IDS }) });
  const auth = { authorization: `Bearer ${sim.keys.readWrite}`, 'content-type': 'application/json' };
  const target = sim.handle({ method: 'POST', url: '/api/v1/targets', headers: auth, body: json({ name: 'Bench', slug: 'bench', brandKit: { voice: 'v', tone: 't' } }) });
  const targetId = JSON.parse(target.body as string).id as string;
  sim.internal.store.accounts.get(sim.internal.store.findKey(sim.keys.readWrite)!.accountId)!.balance = 1e12;
  const body = json({ targetId, kind: 'blog', objective: 'Benchmarks that hold the line' });
  const built = sim.handle({ method: 'POST', url: '/api/v1/builds', headers: { ...auth, 'idempotency-key': 'first' }, body });
  const buildId = JSON.parse(built.body as string).buildId as string;
  let n = 0;
  return {
    sim,
    auth,
    body,
    buildId,
    getBuild: () => sim.handle({ method: 'GET', url: `/api/v1/builds/${buildId}`, headers: auth }),
    getBalance: () => sim.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: auth }),
    create: () => sim.handle({ method: 'POST', url: '/api/v1/builds', headers: { ...auth, 'idempotency-key': `k-${n++}` }, body }),
  };
}

/** Wall and CPU time a call, µs, after a full collection. */
function timed(run: () => unknown, calls: number): [number, number] {
  gc!();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) run();
  const wall = Number(process.hrtime.bigint() - started) / 1000 / calls;
  const used = process.cpuUsage(cpu);
  return [wall, (used.user + used.system) / calls];
}

const perCall = (run: () => unknown, calls: number): number => timed(run, calls)[0];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

const SIDES = ['on', 'off', 'off again'] as const;
type Side = (typeof SIDES)[number];
const cases = ['getBuild', 'getBalance', 'create'] as const;
const fresh = () => ({ on: setup(true), off: setup(false), 'off again': setup(false) });
const times: Record<string, number[]> = {};
const cpuTimes: Record<string, number[]> = {};
// Warm-up: every side and case, twice over, on simulators thrown away.
for (let warm = 0; warm < 2; warm++) {
  const sims = fresh();
  for (const c of cases) for (const side of SIDES) perCall(sims[side][c], c === 'create' ? CREATE_OPS : CALLS);
}
for (let round = 0; round < ROUNDS; round++) {
  const sims = fresh();
  // A fresh simulator's first calls take paths the optimised code has not seen (a first poll, a
  // first creation, a new judge), and the engine is recompiled: untimed here, for every side alike.
  for (const side of SIDES) for (const c of cases) for (let i = 0; i < 200; i++) sims[side][c]();
  const turn = round % SIDES.length;
  const order: Side[] = [...SIDES.slice(turn), ...SIDES.slice(0, turn)];
  for (const c of cases) {
    const wall: Partial<Record<Side, number>> = {};
    const cpu: Partial<Record<Side, number>> = {};
    for (const side of [...order, ...[...order].reverse()]) {
      const [w, u] = timed(sims[side][c], c === 'create' ? CREATE_OPS : CALLS);
      wall[side] = (wall[side] ?? 0) + w / 2;
      cpu[side] = (cpu[side] ?? 0) + u / 2;
    }
    for (const side of SIDES) {
      (times[`${c} ${side}`] ??= []).push(wall[side]!);
      (cpuTimes[`${c} ${side}`] ??= []).push(cpu[side]!);
    }
  }
}
console.log(`client report, µs per call (median of ${ROUNDS} rounds, each side twice a round, in turn): report on / off / off again`);
for (const [clock, table] of [['wall', times], ['cpu', cpuTimes]] as const) {
  for (const c of cases) {
    const [on, off, again] = SIDES.map((side) => median(table[`${c} ${side}`]!)) as [number, number, number];
    const pct = (x: number) => `${x >= off ? '+' : ''}${(((x - off) / off) * 100).toFixed(1)} %`;
    console.log(`  ${clock} ${c.padEnd(10)} ${on.toFixed(2).padStart(7)} / ${off.toFixed(2).padStart(7)} / ${again.toFixed(2).padStart(7)}   on vs off ${pct(on)}, off again vs off ${pct(again)}`);
  }
}

/**
 * The report's own work alone, fed the exchanges above as the engine feeds it after answering:
 * ns per call, far below the engine's noise, so the cost is read here rather than as a difference.
 */
const { sim, auth, body, buildId } = setup(true);
const accountId = sim.internal.store.findKey(sim.keys.readWrite)!.accountId;
const credentialId = sim.internal.store.findKey(sim.keys.readWrite)!.id;
const account = sim.internal.store.accounts.get(accountId)!;
const alone = new ClientReport({ account: (id) => sim.internal.store.accounts.get(id), revokedKeyOwner: () => undefined, realNow: () => performance.now() });
// As the engine hands them: with the account it authenticated and the real time the request came.
const exchange = (request: EngineRequest, operationId: string): [EngineRequest, EngineResponse, ExchangeFacts] => [
  request,
  sim.handle(request),
  { correlationId: 'corr_bench', now: sim.clock.now(), accountId, account, realAt: performance.now(), credentialId, operationId },
];
const poll = exchange({ method: 'GET', url: `/api/v1/builds/${buildId}`, headers: auth }, 'getBuild');
const balance = exchange({ method: 'GET', url: '/api/v1/tokens/balance', headers: auth }, 'getTokenBalance');
const creations = Array.from({ length: CREATE_OPS }, (_, i) => exchange({ method: 'POST', url: '/api/v1/builds', headers: { ...auth, 'idempotency-key': `alone-${i}` }, body }, 'createBuild'));
let next = 0;
const feeds = {
  getBuild: () => alone.observe(...poll),
  getBalance: () => alone.observe(...balance),
  create: () => alone.observe(...(creations[next++ % creations.length]!)),
};
for (const c of cases) perCall(feeds[c], 2000);
console.log('the report alone (ClientReport.observe), ns per call:');
for (const c of cases) {
  const ns = median(Array.from({ length: ROUNDS }, () => perCall(feeds[c], CALLS) * 1000));
  console.log(`  ${c.padEnd(10)} ${ns.toFixed(0).padStart(7)} ns`);
}
