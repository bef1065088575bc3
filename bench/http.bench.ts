/**
 * GET a build on the simulator beside bare node:http and bare express 5 serving the same
 * bytes, on loopback, in the same run: rounds rotate which server goes first, and the report
 * gives medians and ratios (the shared machines are noisy; ratios travel better).
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

const SERVERS = ['simulator (node:http, the CLI)', 'simulator (express adapter)', 'bare node:http + auth', 'bare express 5 + auth'] as const;
type ServerName = (typeof SERVERS)[number];

async function main() {
  const sim = await start('bench/servers/simulator.ts');
  const { path, key, body } = sim.info;
  const env = { BENCH_KEY: key, BENCH_PATH: path, BENCH_BODY: body };
  const started: Record<ServerName, { child: ChildProcess; info: any }> = {
    'simulator (node:http, the CLI)': sim,
    'simulator (express adapter)': await start('bench/servers/simulator.ts', { BENCH_ADAPTER: 'express' }),
    'bare node:http + auth': await start('bench/servers/bare-node.ts', env),
    'bare express 5 + auth': await start('bench/servers/bare-express.ts', env),
  };
  const samples = Object.fromEntries(SERVERS.map((name) => [name, [] as Sample[]])) as Record<ServerName, Sample[]>;
  try {
    for (const name of SERVERS) await load(started[name].info.port, path, key); // warm-up, not counted
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order, so no server always runs on the warmest (or most tired) machine.
      const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]!);
      for (const name of order) samples[name].push(await load(started[name].info.port, path, key));
    }
  } finally {
    for (const name of SERVERS) started[name].child.kill();
  }
  const row = (name: string, s: Sample[]) =>
    `${name.padEnd(32)} ${median(s.map((x) => x.rps)).toFixed(0).padStart(8)} req/s   p50 ${median(s.map((x) => x.p50)).toFixed(1)} ms   p99 ${median(s.map((x) => x.p99)).toFixed(1)} ms   non-2xx ${s.reduce((a, x) => a + x.non2xx, 0)}`;
  const ratio = (a: ServerName, b: ServerName) => {
    const rs = samples[a].map((s, i) => s.rps / samples[b][i]!.rps);
    return `median ${median(rs).toFixed(2)} (rounds: ${rs.map((r) => r.toFixed(2)).join(', ')})`;
  };
  console.log(`GET /api/v1/builds/:id, ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s (medians), response ${Buffer.byteLength(body)} bytes`);
  for (const name of SERVERS) console.log(row(name, samples[name]));
  console.log(`ratio simulator (CLI) / bare node:http:    ${ratio('simulator (node:http, the CLI)', 'bare node:http + auth')}`);
  console.log(`ratio simulator (CLI) / bare express:      ${ratio('simulator (node:http, the CLI)', 'bare express 5 + auth')}`);
  console.log(`ratio simulator (express) / bare express:  ${ratio('simulator (express adapter)', 'bare express 5 + auth')}`);
  if (SERVERS.some((name) => samples[name].some((s) => s.non2xx > 0))) {
    console.error('some responses were not 2xx: the figures are not comparable');
    process.exitCode = 1;
  }
}

await main();
