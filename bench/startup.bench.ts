/**
 * Cold start: wall time from spawning a process to the first answer of a request, for the
 * built CLI (`content-sim serve`) and for a bare node:http script, alternating in the same
 * run; medians over rounds, the spread, and the ratio (the line: at most 2.5×). On Linux, also
 * the CPU time each process spent until then (its threads' run time, from /proc), which a busy
 * machine does not inflate the way it inflates wall time.
 *
 *   npx tsx bench/startup.bench.ts          # BENCH_ROUNDS=9
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

/** Milliseconds on a CPU of all the threads of `pid` so far, or NaN where /proc does not say. */
function cpuMs(pid: number | undefined): number {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6, 0);
  } catch {
    return NaN;
  }
}

interface Start {
  wall: number;
  cpu: number;
}

/** Milliseconds from spawn to the first answer of GET /healthz, in wall time and in CPU time of the process. */
async function firstAnswer(args: string[]): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /listening on\s+(http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
    });
    await (await fetch(`${url}/healthz`)).text();
    return { wall: performance.now() - started, cpu: cpuMs(child.pid) };
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

async function main() {
  // The bare script compiled to plain JS first, so neither side pays for TypeScript.
  const dir = mkdtempSync(join(tmpdir(), 'startup-bench-'));
  const bare = join(dir, 'bare.mjs');
  const { outputFiles } = await build({ entryPoints: [`${root}bench/servers/bare-first.ts`], platform: 'node', format: 'esm', write: false });
  writeFileSync(bare, outputFiles[0]!.text);
  const cli = `${root}dist/cli/main.js`;
  const bareMs: Start[] = [];
  const cliMs: Start[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither always meets a warmer disk cache.
    if (round % 2 === 0) bareMs.push(await firstAnswer([bare]));
    cliMs.push(await firstAnswer([cli, 'serve', '--port', '0', '--quiet']));
    if (round % 2 === 1) bareMs.push(await firstAnswer([bare]));
  }
  const wall = (xs: Start[]) => xs.map((x) => x.wall);
  const cpu = (xs: Start[]) => xs.map((x) => x.cpu);
  console.log(`cold start to the first answer, ${ROUNDS} rounds, Node ${process.versions.node} (median, min–max)`);
  console.log(`  bare node:http script   ${median(wall(bareMs)).toFixed(0)} ms   (${spread(wall(bareMs))})   CPU ${median(cpu(bareMs)).toFixed(0)} ms`);
  console.log(`  content-sim serve       ${median(wall(cliMs)).toFixed(0)} ms   (${spread(wall(cliMs))})   CPU ${median(cpu(cliMs)).toFixed(0)} ms`);
  console.log(`  ratio CLI / bare        ${(median(wall(cliMs)) / median(wall(bareMs))).toFixed(2)}   (line: 2.5)   in CPU time ${(median(cpu(cliMs)) / median(cpu(bareMs))).toFixed(2)}`);
}

await main();
