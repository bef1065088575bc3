/**
 * GET a build on the simulator beside a bare express 5 server, on loopback, in the same
 * run: rounds alternate which server goes first, and the report gives medians and the
 * ratio simulator / bare express (the shared machines are noisy; ratios travel better).
 *
 *   npm run bench                       # 5 rounds of 4 s each
 *   BENCH_ROUNDS=3 BENCH_SECONDS=2 npm run bench
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

function start(script: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; info: any }> {
  const child = spawn(`${root}node_modules/.bin/tsx`, [script], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ child, info: JSON.parse(line!) });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function load(port: number, path: string, key: string): Promise<Sample> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${key}` },
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  const sim = await start('bench/servers/simulator.ts');
  const { port: simPort, path, key, body } = sim.info;
  const bare = await start('bench/servers/bare-express.ts', { BENCH_KEY: key, BENCH_PATH: path, BENCH_BODY: body });
  const samples = { simulator: [] as Sample[], bare: [] as Sample[] };
  try {
    await load(simPort, path, key); // warm-up, not counted
    await load(bare.info.port, path, key);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['simulator', 'bare'] as const) : (['bare', 'simulator'] as const);
      for (const name of order) samples[name].push(await load(name === 'simulator' ? simPort : bare.info.port, path, key));
    }
  } finally {
    sim.child.kill();
    bare.child.kill();
  }
  const row = (name: string, s: Sample[]) =>
    `${name.padEnd(26)} ${median(s.map((x) => x.rps)).toFixed(0).padStart(8)} req/s   p50 ${median(s.map((x) => x.p50)).toFixed(1)} ms   p99 ${median(s.map((x) => x.p99)).toFixed(1)} ms   non-2xx ${s.reduce((a, x) => a + x.non2xx, 0)}`;
  const ratios = samples.simulator.map((s, i) => s.rps / samples.bare[i]!.rps);
  console.log(`GET /api/v1/builds/:id, ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s (medians), response ${Buffer.byteLength(body)} bytes`);
  console.log(row('simulator (express)', samples.simulator));
  console.log(row('bare express 5 + auth', samples.bare));
  console.log(`ratio simulator / bare express: median ${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`);
  if (samples.simulator.some((s) => s.non2xx > 0) || samples.bare.some((s) => s.non2xx > 0)) {
    console.error('some responses were not 2xx: the figures are not comparable');
    process.exitCode = 1;
  }
}

await main();
