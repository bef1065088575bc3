/**
 * One measurement of bench/memory.bench.ts, in a process of its own so that RSS means
 * something: `n` builds created through the engine (each charged to the ledger), half of them
 * then read once (which regenerates their content behind the bounded cache), every build
 * completed by the clock; prints heap and RSS as JSON. With `soak` instead of a number: a
 * steady load (BENCH_SOAK_RATE builds a second, each read, lists, the clock moving) for BENCH_SOAK_SECONDS, printing RSS
 * after the first tenth and at the end.
 */
import { createSimulator } from '../src/simulator.js';
import { HeapGrowth } from '../src/cli/heap-growth.js';
import { sampleMemory } from '../src/cli/memory-gauge.js';

/**
 * What `content-sim serve` runs beside the simulator: its memory gauge, sampling four times a
 * second and feeding the heap's growing policy. The loops here never yield to the event loop,
 * so they take the gauge's samples themselves. BENCH_LIBRARY=1: the simulator alone, as a
 * program that embeds it runs it.
 */
const growth = process.env.BENCH_LIBRARY === '1' ? null : new HeapGrowth();
let sampledAt = 0;
function gaugeSample(): void {
  const now = performance.now();
  if (growth === null || now - sampledAt < 250) return;
  sampledAt = now;
  growth.update(sampleMemory().heapUsed);
}

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function setup() {
  const sim = createSimulator({ journalSize: 1000, frozenAt: '2026-03-02T09:00:00Z', rateLimits: { perKey: { default: 1e12, 'build-create': 1e12, generation: 1e12 }, perUser: 1e12 } });
  const headers = { authorization: `Bearer ${sim.keys.readWrite}`, 'content-type': 'application/json' };
  const target = sim.handle({ method: 'POST', url: '/api/v1/targets', headers, body: encode({ name: 'Bench', slug: 'bench' }) });
  const targetId = JSON.parse(target.body as string).id as string;
  // Enough for every build (a blog costs 1 token), and a balance an account could really hold:
  // under 2^31, as V8 keeps small integers unboxed (1e12 made every ledger entry 16 bytes heavier).
  sim.internal.store.account(sim.internal.store.findKey(sim.keys.readWrite)!.accountId)!.balance = 1_000_000_000;
  const create = { method: 'POST', url: '/api/v1/builds', headers, body: encode({ targetId, kind: 'blog', objective: 'Memory that holds the line' }) };
  return { sim, headers, create };
}

function settle(): NodeJS.MemoryUsage {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  return process.memoryUsage();
}

/**
 * RSS once the process has been idle a while: V8's memory reducer gives back the pages the run
 * left free (about 30 s after the last allocation), as a server between bursts does.
 */
async function idleRss(): Promise<number> {
  const seconds = Number(process.env.BENCH_IDLE_SECONDS ?? 45);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return process.memoryUsage().rss;
}

async function builds(n: number): Promise<void> {
  const { sim, headers, create } = setup();
  const base = settle();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const answer = sim.handle(create);
    if (i % 2 === 0) ids.push(JSON.parse(answer.body as string).buildId as string);
    gaugeSample();
  }
  sim.clock.advance(24 * 3_600_000);
  for (const id of ids) {
    sim.handle({ method: 'GET', url: `/api/v1/builds/${id}`, headers });
    gaugeSample();
  }
  ids.length = 0;
  const after = settle();
  const idle = await idleRss();
  const kept = sim.internal.store.accounts.size; // keeps the simulator alive until measured
  console.log(JSON.stringify({ n, heapPerBuild: (after.heapUsed - base.heapUsed) / n, rssMiB: after.rss / 2 ** 20, idleRssMiB: idle / 2 ** 20, heapMiB: after.heapUsed / 2 ** 20, heapTotalMiB: after.heapTotal / 2 ** 20, peakRssMiB: process.resourceUsage().maxRSS / 1024, growingPercent: growth?.growingPercent ?? null, kept }));
}

async function soak(seconds: number): Promise<void> {
  const { sim, headers, create } = setup();
  const started = performance.now();
  const samples: Array<{ at: number; rssMiB: number }> = [];
  let made = 0;
  let last = '';
  // Steady load: each real second, `rate` builds created, each read once, and as many filtered
  // lists, while the virtual clock moves a second, as a client fleet would.
  const rate = Number(process.env.BENCH_SOAK_RATE ?? 30);
  for (let second = 1; performance.now() - started < seconds * 1000; second++) {
    for (let i = 0; i < rate; i++) {
      const answer = sim.handle(create);
      last = JSON.parse(answer.body as string).buildId as string;
      made++;
      sim.handle({ method: 'GET', url: `/api/v1/builds/${last}`, headers });
      sim.handle({ method: 'GET', url: '/api/v1/builds?status=completed&limit=20', headers });
      gaugeSample();
    }
    sim.clock.advance(1000);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + second * 1000 - performance.now())));
    const elapsed = (performance.now() - started) / 1000;
    if (samples.length === 0 && elapsed >= seconds / 10) samples.push({ at: elapsed, rssMiB: settle().rss / 2 ** 20 });
  }
  samples.push({ at: (performance.now() - started) / 1000, rssMiB: settle().rss / 2 ** 20 });
  console.log(JSON.stringify({ soak: seconds, builds: made, first: samples[0], end: samples[1], growth: samples[1]!.rssMiB / samples[0]!.rssMiB - 1, accounts: sim.internal.store.accounts.size }));
}

const arg = process.argv[2] ?? '10000';
if (arg === 'soak') await soak(Number(process.env.BENCH_SOAK_SECONDS ?? 30));
else await builds(Number(arg));
