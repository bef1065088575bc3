/**
 * GET a build on the simulator beside bare node:http (and bare express 5) serving the same
 * bytes, on loopback, in the same run: rounds rotate which server goes first, and the report
 * gives medians and ratios (the shared machines are noisy; ratios travel better).
 *
 * Pinned (the default where `taskset` exists): each server on core 0, the load generator on
 * core 1, and besides requests a second the server's own CPU time a request, read from
 * /proc/<pid>/stat: what one core sustains, which a shared-core run cannot say.
 *
 *   npm run bench                       # 5 rounds of 4 s each
 *   BENCH_ROUNDS=3 BENCH_SECONDS=2 npm run bench
 *   BENCH_PINNED=0 npm run bench        # server and load generator share every core
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const SERVER_CORE = process.env.BENCH_SERVER_CORE ?? '0';
const LOAD_CORE = process.env.BENCH_LOAD_CORE ?? '1';

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A server in a process of its own. Node runs the script itself (tsx as a loader, not its CLI,
 * which would add a parent process), so the child's pid is the server's, whose CPU time counts.
 */
function start(script: string, env: Record<string, string> = {}, core?: string): Promise<{ child: ChildProcess; info: any }> {
  const node = [process.execPath, '--import', 'tsx', script];
  const [command, ...args] = core === undefined ? node : ['taskset', '-c', core, ...node];
  const child = spawn(command!, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
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

/** CPU seconds (user + system, every thread) a process has used so far, from /proc/<pid>/stat. */
const TICKS_PER_SECOND = Number(process.env.BENCH_CLK_TCK ?? 100);
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: the fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime (fields 14 and 15)
}

interface PinnedSample extends Sample {
  /** Server CPU microseconds a request. */
  cpuUs: number;
}

async function pinnedLoad(server: { child: ChildProcess; info: any }, path: string, key: string): Promise<PinnedSample> {
  const pid = server.child.pid!;
  const before = cpuSeconds(pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.info.port}${path}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${key}` },
  });
  const cpu = cpuSeconds(pid) - before;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, cpuUs: (cpu * 1e6) / result.requests.total };
}

/** The measure: server pinned to one core, generator to the other, interleaved rounds. */
async function pinned() {
  // This process is the load generator (autocannon runs in it): every thread of it to the load core.
  execFileSync('taskset', ['-a', '-cp', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
  const sim = await start('bench/servers/simulator.ts', {}, SERVER_CORE);
  const { path, key, body } = sim.info;
  const bare = await start('bench/servers/bare-node.ts', { BENCH_KEY: key, BENCH_PATH: path, BENCH_BODY: body }, SERVER_CORE);
  const servers = { 'simulator (node:http, the CLI)': sim, 'bare node:http + auth': bare };
  const names = Object.keys(servers) as Array<keyof typeof servers>;
  const samples = Object.fromEntries(names.map((name) => [name, [] as PinnedSample[]])) as Record<keyof typeof servers, PinnedSample[]>;
  try {
    for (const name of names) await pinnedLoad(servers[name], path, key); // warm-up, not counted
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...names].reverse() : names;
      for (const name of order) samples[name].push(await pinnedLoad(servers[name], path, key));
    }
  } finally {
    for (const name of names) servers[name].child.kill();
  }
  const [simulator, floor] = [samples['simulator (node:http, the CLI)'], samples['bare node:http + auth']];
  console.log(`GET /api/v1/builds/:id pinned: servers on core ${SERVER_CORE}, load generator on core ${LOAD_CORE}; ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds × ${SECONDS} s (medians), response ${Buffer.byteLength(body)} bytes`);
  for (const name of names) {
    const s = samples[name];
    console.log(`${name.padEnd(32)} ${median(s.map((x) => x.rps)).toFixed(0).padStart(8)} req/s   ${median(s.map((x) => x.cpuUs)).toFixed(1).padStart(6)} µs CPU/request   p50 ${median(s.map((x) => x.p50)).toFixed(1)} ms   p99 ${median(s.map((x) => x.p99)).toFixed(1)} ms   non-2xx ${s.reduce((a, x) => a + x.non2xx, 0)}`);
  }
  const rps = simulator.map((s, i) => s.rps / floor[i]!.rps);
  // Per server CPU-second: requests a CPU-second of the simulator over those of bare node:http.
  const perCpu = simulator.map((s, i) => floor[i]!.cpuUs / s.cpuUs);
  const show = (rs: number[]) => `median ${median(rs).toFixed(2)} (rounds: ${rs.map((r) => r.toFixed(2)).join(', ')})`;
  console.log(`ratio simulator / bare node:http, requests a second:      ${show(rps)}`);
  console.log(`ratio simulator / bare node:http, per server CPU-second:  ${show(perCpu)}`);
  if ([...simulator, ...floor].some((s) => s.non2xx > 0)) {
    console.error('some responses were not 2xx: the figures are not comparable');
    process.exitCode = 1;
  }
}

async function shared() {
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

const pinnedWanted = process.env.BENCH_PINNED !== '0';
if (pinnedWanted && process.platform === 'linux' && hasTaskset()) await pinned();
else {
  if (pinnedWanted) console.log('taskset (util-linux) not found: server and load generator share every core, so no per-CPU figure');
  await shared();
}
