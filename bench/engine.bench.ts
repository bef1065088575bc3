/**
 * The engine in-process, without HTTP: creating a build and reading one, in microseconds per
 * call (medians over rounds, with the spread), and the heap a build costs. What every adapter
 * (HTTP, msw, MCP) pays before its own translation.
 *
 *   npx tsx bench/engine.bench.ts          # BENCH_ROUNDS=5, BENCH_CALLS=20000, BENCH_CREATE_OPS=10000, BENCH_BIG_BUILDS=1000000
 */
import { createSimulator } from '../src/simulator.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const CREATE_OPS = Number(process.env.BENCH_CREATE_OPS ?? 10_000);
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function setup() {
  const sim = createSimulator({ journalSize: Number(process.env.BENCH_JOURNAL ?? 1000), frozenAt: '2026-03-02T09:00:00Z', rateLimits: { perKey: { default: 1e12, 'build-create': 1e12, generation: 1e12 }, perUser: 1e12 } });
  const auth = { authorization: `Bearer ${sim.keys.readWrite}`, 'content-type': 'application/json' };
  const target = sim.handle({ method: 'POST', url: '/api/v1/targets', headers: auth, body: json({ name: 'Bench', slug: 'bench', brandKit: { voice: 'v', tone: 't' } }) });
  const targetId = JSON.parse(target.body as string).id as string;
  sim.internal.store.account(sim.internal.store.findKey(sim.keys.readWrite)!.accountId)!.balance = 1e12;
  const create = json({ targetId, kind: 'blog', objective: 'Benchmarks that hold the line' });
  return { sim, auth, create };
}

function perCall(run: () => void, calls: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) run();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

/** Every call timed on its own, in µs: the distribution, so the tail shows beside the median. */
function perOp(run: () => void, calls: number): Float64Array {
  const times = new Float64Array(calls);
  for (let i = 0; i < calls; i++) {
    const started = process.hrtime.bigint();
    run();
    times[i] = Number(process.hrtime.bigint() - started) / 1000;
  }
  return times;
}

const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

/** Median µs of a filtered list (a filter that matches nothing: no build has failed) after `builds` builds. */
function filteredList(builds: number): number {
  const { sim, auth, create } = setup();
  const post = { method: 'POST', url: '/api/v1/builds', headers: auth, body: create };
  for (let i = 0; i < builds; i++) sim.handle(post);
  const list = { method: 'GET', url: '/api/v1/builds?status=failed&limit=20', headers: auth };
  const rounds = Array.from({ length: ROUNDS }, () => perCall(() => sim.handle(list), 200));
  return median(rounds);
}

function main() {
  const createUs: number[] = [];
  const createP50: number[] = [];
  const createP99: number[] = [];
  const getUs: number[] = [];
  const heapPerBuild: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { sim, auth, create } = setup();
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const post = { method: 'POST', url: '/api/v1/builds', headers: auth, body: create };
    let last = sim.handle(post);
    createUs.push(perCall(() => (last = sim.handle(post)), CALLS));
    // A second batch in the same account, each create timed alone: median and 99th percentile.
    const times = perOp(() => (last = sim.handle(post)), CREATE_OPS).sort();
    createP50.push(percentile(times, 0.5));
    createP99.push(percentile(times, 0.99));
    const lastId = JSON.parse(last.body as string).buildId as string;
    globalThis.gc?.();
    // The first round only: later ones would count the collection of the rounds before.
    if (round === 0) heapPerBuild.push((process.memoryUsage().heapUsed - heapBefore) / (CALLS + CREATE_OPS));
    sim.clock.advance(3_600_000);
    const get = { method: 'GET', url: `/api/v1/builds/${lastId}`, headers: auth };
    getUs.push(perCall(() => sim.handle(get), CALLS));
  }
  console.log(`engine in-process, ${ROUNDS} rounds of ${CALLS} calls (median, min–max)`);
  console.log(`  POST /builds     ${median(createUs).toFixed(1)} µs/call   (${spread(createUs)})`);
  console.log(`  POST /builds one by one, ${CREATE_OPS} a round: median ${median(createP50).toFixed(1)} µs (${spread(createP50)}), p99 ${median(createP99).toFixed(1)} µs (${spread(createP99)})`);
  console.log(`  GET  /builds/id  ${median(getUs).toFixed(1)} µs/call   (${spread(getUs)})`);
  console.log(`  heap per build   ${(median(heapPerBuild) / 1024).toFixed(2)} KiB${globalThis.gc ? '' : '   (run with --expose-gc for a settled figure)'}`);
  const big = Number(process.env.BENCH_BIG_BUILDS ?? 1_000_000);
  const small = filteredList(1_000);
  const large = filteredList(big);
  console.log(`  GET /builds?status=failed (matches nothing): ${small.toFixed(1)} µs at 10^3 builds, ${large.toFixed(1)} µs at ${big.toExponential(0).replace('e+', '×10^')} builds: ratio ${(large / small).toFixed(2)}`);
}

main();
