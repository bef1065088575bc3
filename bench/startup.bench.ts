/**
 * Cold start: wall time from spawning a process to the first answer of a request, for the
 * built CLI (`content-sim serve`) and for a bare node:http script, alternating in the same
 * run; medians over rounds, the spread, and the ratio (the line: at most 3×).
 *
 *   npx tsx bench/startup.bench.ts          # BENCH_ROUNDS=9
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

/** Milliseconds from spawn to the first answer of GET /healthz. */
async function firstAnswer(args: string[]): Promise<number> {
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
    return performance.now() - started;
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
  const bareMs: number[] = [];
  const cliMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither always meets a warmer disk cache.
    if (round % 2 === 0) bareMs.push(await firstAnswer([bare]));
    cliMs.push(await firstAnswer([cli, 'serve', '--port', '0', '--quiet']));
    if (round % 2 === 1) bareMs.push(await firstAnswer([bare]));
  }
  console.log(`cold start to the first answer, ${ROUNDS} rounds (median, min–max)`);
  console.log(`  bare node:http script   ${median(bareMs).toFixed(0)} ms   (${spread(bareMs)})`);
  console.log(`  content-sim serve       ${median(cliMs).toFixed(0)} ms   (${spread(cliMs)})`);
  console.log(`  ratio CLI / bare        ${(median(cliMs) / median(bareMs)).toFixed(2)}   (line: 3)`);
}

await main();
