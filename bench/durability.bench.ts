/**
 * What keeping a state file costs: create throughput over loopback with `--durability
 * every-write` (and `interval`) against the same CLI without a state file, in the same run
 * (rounds rotate which goes first; medians and ratios, as the machines are shared); then
 * memory at 10^6 builds with a state file against none, each in a process of its own.
 *
 *   npm run bench
 *   npx tsx bench/durability.bench.ts
 *   BENCH_ROUNDS=3 BENCH_SECONDS=4 BENCH_DURABILITY_BUILDS=1000000 npx tsx bench/durability.bench.ts
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const BUILDS = Number(process.env.BENCH_DURABILITY_BUILDS ?? 1_000_000);

const MODES = { 'no state file': [], 'every-write': ['--durability', 'every-write'], interval: ['--durability', 'interval'] } as const;
type Mode = keyof typeof MODES;

async function serve(mode: Mode): Promise<{ child: ChildProcess; port: number; key: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sim-bench-'));
  const state = mode === 'no state file' ? [] : ['--state-file', join(dir, 'state.json'), ...MODES[mode]];
  const child = spawn(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0', '--quiet', '--no-rate-limits', '--journal-size', '0', '--quota-targets', '100000000', '--quota-stored-mib', '100000000', ...state], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const port = /listening on\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const key = /read\+write\s+(svc_live_[0-9a-f]{40})/.exec(out)?.[1];
      if (port && key && out.includes('empty account')) resolve({ child, port: Number(port), key, dir });
    });
    child.once('exit', (code) => reject(new Error(`the CLI exited ${code}: ${out}`)));
  });
}

/** Targets created as fast as CONNECTIONS clients can: each with a slug of its own (the server runs with quotas out of reach). */
async function creates(port: number, key: string): Promise<{ rps: number; p50: number; p99: number; non2xx: number }> {
  let n = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{
      method: 'POST',
      path: '/api/v1/targets',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: 'Bench', slug: `bench-${n++}` }) }),
    }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const samples = new Map<Mode, Array<{ rps: number; p50: number; p99: number; non2xx: number }>>();
const modes = Object.keys(MODES) as Mode[];
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < modes.length; i++) {
    const mode = modes[(i + round) % modes.length]!;
    const server = await serve(mode);
    const sample = await creates(server.port, server.key);
    server.child.kill('SIGKILL');
    rmSync(server.dir, { recursive: true, force: true });
    if (sample.non2xx > 0) throw new Error(`${mode}: ${sample.non2xx} answers were not 201`);
    samples.set(mode, [...(samples.get(mode) ?? []), sample]);
  }
}
const base = median(samples.get('no state file')!.map((s) => s.rps));
console.log(`\nCreate a target over loopback (${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s; medians):`);
for (const mode of modes) {
  const runs = samples.get(mode)!;
  const rps = median(runs.map((s) => s.rps));
  console.log(`  ${mode.padEnd(14)} ${rps.toFixed(0).padStart(7)} creates/s  ${(rps / base).toFixed(2)}×  p50 ${median(runs.map((s) => s.p50))} ms  p99 ${median(runs.map((s) => s.p99))} ms  (rounds ${runs.map((s) => s.rps.toFixed(0)).join(', ')})`);
}

function worker(mode: 'memory' | 'state'): any {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/durability-worker.ts', mode, String(BUILDS)], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop()!);
}
const plain = worker('memory');
const kept = worker('state');
console.log(`\n${BUILDS.toLocaleString('en')} builds in-process, without and with a state file (every-write, a wait on the log each 1000):`);
for (const [name, m] of [['no state file', plain], ['state file', kept]] as const) {
  console.log(`  ${name.padEnd(14)} ${m.seconds.toFixed(1)} s  heap ${m.heapPerBuild.toFixed(0)} B a build  RSS ${m.rssMiB.toFixed(0)} MiB settled, ${m.peakRssMiB.toFixed(0)} MiB at peak${name === 'state file' ? `  files ${m.stateFileMiB.toFixed(0)} MiB` : ''}`);
}
