/**
 * One measurement of bench/durability.bench.ts, in a process of its own so that RSS means
 * something: `n` builds created through the engine, with a state file (`state`) or without
 * (`memory`); with one, each thousand builds waits for the log as an answer would, and the end
 * waits for the checkpoint that folds the log in. Prints heap, RSS (settled and at peak) and
 * the files' sizes as JSON.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulator } from '../src/simulator.js';
import { DurableState } from '../src/persist/durable-state.js';

const [, , mode, count] = process.argv;
const n = Number(count ?? 1_000_000);
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const settle = () => {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
  return process.memoryUsage();
};

const sim = createSimulator({ journalSize: 0, frozenAt: '2026-03-02T09:00:00Z', rateLimits: { perKey: { default: 1e12, 'build-create': 1e12, generation: 1e12 }, perUser: 1e12 } });
const dir = mkdtempSync(join(tmpdir(), 'sim-bench-'));
const path = join(dir, 'state.json');
const kept = mode === 'state' ? new DurableState(sim, { path, durability: 'every-write', intervalMs: 1000, onError: (line) => process.stderr.write(line) }, undefined) : undefined;
const headers = { authorization: `Bearer ${sim.keys.readWrite}`, 'content-type': 'application/json' };
const target = sim.handle({ method: 'POST', url: '/api/v1/targets', headers, body: encode({ name: 'Bench', slug: 'bench' }) });
const targetId = JSON.parse(target.body as string).id as string;
await target.durable;
const account = sim.internal.store.account(sim.internal.store.findKey(sim.keys.readWrite)!.accountId)!;
account.balance = 1_000_000_000;
const create = { method: 'POST', url: '/api/v1/builds', headers, body: encode({ targetId, kind: 'blog', objective: 'Memory that holds the line' }) };

const base = settle();
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const started = performance.now();
for (let i = 0; i < n; i++) {
  const answer = sim.handle(create);
  if (answer.status !== 202) throw new Error(`create answered ${answer.status}: ${String(answer.body)}`);
  if (i % 1000 === 999) await answer.durable;
}
// The last checkpoint, if one is under way, and the log flushed: what a stop does.
await kept?.stop();
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const after = settle();
const files = readdirSync(dir).map((name) => statSync(join(dir, name)).size);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({
  // Read after the measure: the builds stay reachable until then (else the collector takes them all).
  n: account.builds.size,
  seconds,
  heapPerBuild: (after.heapUsed - base.heapUsed) / n,
  rssMiB: after.rss / 2 ** 20,
  peakRssMiB: Math.max(peak, after.rss) / 2 ** 20,
  stateFileMiB: files.reduce((a, b) => a + b, 0) / 2 ** 20,
})}\n`);
process.exit(0);
