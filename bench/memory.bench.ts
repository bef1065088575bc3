/**
 * Memory as history grows: heap and RSS per build at 10^4, 10^5 and 10^6 builds (each charged,
 * half of them read once), each in a fresh process, with the RSS slope from one size to the
 * next; and a soak at steady load whose RSS at the end is compared with its RSS after the
 * first tenth. The issue's lines: 10^6 builds within
 * 1 GB of RSS at its peak and 800 MiB once settled, the soak within 10%. Node's own heap limit
 * (no --max-old-space-size), with the memory gauge `content-sim serve` runs (BENCH_LIBRARY=1:
 * without it, as a program embedding the simulator runs it).
 *
 *   npx tsx bench/memory.bench.ts            # BENCH_MEMORY_SIZES=10000,100000,1000000 BENCH_SOAK_SECONDS=60 BENCH_IDLE_SECONDS=45 BENCH_LIBRARY=
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sizes = (process.env.BENCH_MEMORY_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);

function worker(arg: string): any {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', `${root}bench/memory-worker.ts`, arg], {
    cwd: root,
    env: { ...process.env, BENCH_SOAK_SECONDS: String(soakSeconds) },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

console.log('memory per build (fresh process each; builds charged, half read once, all completed)');
let previous: { n: number; rss: number } | null = null;
for (const n of sizes) {
  const r = worker(String(n));
  // The RSS slope: what each build between two sizes added to the process's resident memory, the fixed part left out.
  const slope = previous === null ? '' : `   RSS slope ${((r.rssMiB - previous.rss) * 2 ** 20 / (n - previous.n)).toFixed(0)} B/build since ${previous.n.toExponential(0).replace('e+', '×10^')}`;
  previous = { n, rss: r.rssMiB };
  console.log(`  ${n.toExponential(0).replace('e+', '×10^').padEnd(6)} builds   heap ${r.heapPerBuild.toFixed(0)} B/build   RSS ${r.rssMiB.toFixed(0)} MiB after the run, ${r.idleRssMiB.toFixed(0)} MiB settled (idle), ${r.peakRssMiB.toFixed(0)} MiB at the peak${n >= 1_000_000 ? `   (lines: peak 1000 MB = ${(1e9 / 2 ** 20).toFixed(0)} MiB, settled 800 MiB)` : ''}${slope}`);
}
if (soakSeconds > 0) {
  const s = worker('soak');
  console.log(`soak ${s.soak} s at a steady ${Math.round(s.builds / s.soak)} builds a second, each read, with lists (${s.builds} builds): RSS ${s.first.rssMiB.toFixed(0)} MiB after ${s.first.at.toFixed(0)} s, ${s.end.rssMiB.toFixed(0)} MiB at the end: ${(s.growth * 100).toFixed(1)}% (line: 10%)`);
}
