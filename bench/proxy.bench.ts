/**
 * The latency the validation proxy adds: GET a build on the simulator directly and through
 * `content-contracts proxy` (its own process, as in use), one request at a time, in rounds
 * that alternate which goes first. Reports the medians and their ratio (noisy shared
 * machines: ratios travel better than milliseconds).
 *
 *   npm run bench                          # includes this
 *   BENCH_PROXY_ROUNDS=3 BENCH_PROXY_REQUESTS=100 tsx bench/proxy.bench.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_PROXY_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_PROXY_REQUESTS ?? 200);

function start(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(`${root}node_modules/.bin/tsx`, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const match = ready.exec(out);
      if (match) resolve({ child, match });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out}`)));
  });
}

/** One GET on a kept-alive connection; answers its latency in ms. */
function get(port: number, path: string, key: string, agent: import('node:http').Agent): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  const sim = await start(['bench/servers/simulator.ts'], /^(\{.*\})\n/);
  const { port, path, key } = JSON.parse(sim.match[1]!);
  const proxy = await start(['contracts/run.ts', 'proxy', '--target', `http://127.0.0.1:${port}`, '--port', '0', '--level', 'strict', '--report-dir', `${root}reports/bench`], /listening on http:\/\/127\.0\.0\.1:(\d+)/);
  const proxyPort = Number(proxy.match[1]);
  const { Agent } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const medians = { direct: [] as number[], proxied: [] as number[] };
  try {
    for (let i = 0; i < 50; i++) (await get(port, path, key, agent), await get(proxyPort, path, key, agent)); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
      for (const name of order) {
        const latencies: number[] = [];
        for (let i = 0; i < REQUESTS; i++) latencies.push(await get(name === 'direct' ? port : proxyPort, path, key, agent));
        medians[name].push(median(latencies));
      }
    }
  } finally {
    agent.destroy();
    proxy.child.kill('SIGTERM');
    sim.child.kill();
  }
  const ratios = medians.proxied.map((p, i) => p / medians.direct[i]!);
  console.log(`GET /api/v1/builds/:id one at a time, ${ROUNDS} rounds × ${REQUESTS} requests, through the validation proxy (strict level) and directly`);
  console.log(`median latency: direct ${median(medians.direct).toFixed(2)} ms, proxied ${median(medians.proxied).toFixed(2)} ms (added ${(median(medians.proxied) - median(medians.direct)).toFixed(2)} ms)`);
  console.log(`ratio proxied / direct: median ${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`);
}

await main();
