/**
 * `tools/call getBuild` over MCP (2026-07-28, stateless: one POST per call) beside REST
 * `GET /api/v1/builds/:id` on the same simulator process, in the same run, rounds
 * alternating which goes first. Prints medians and the ratio MCP / REST.
 *
 *   npm run bench:mcp            # 5 rounds of 4 s each
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const VERSION = '2026-07-28';

const child = spawn(`${root}node_modules/.bin/tsx`, ['bench/servers/simulator.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise<{ port: number; path: string; key: string }>((resolve, reject) => {
  let out = '';
  child.stdout!.on('data', (c) => {
    out += c;
    if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
  });
  child.on('exit', (code) => reject(new Error(`simulator exited ${code}`)));
});
const buildId = info.path.split('/').pop()!;
const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getBuild', arguments: { buildId }, _meta: meta } });

interface Sample {
  rps: number;
  p50: number;
  failures: number;
}

async function run(kind: 'rest' | 'mcp'): Promise<Sample> {
  const auth = { authorization: `Bearer ${info.key}` };
  const result = await autocannon(
    kind === 'rest'
      ? { url: `http://127.0.0.1:${info.port}${info.path}`, connections: CONNECTIONS, duration: SECONDS, headers: auth }
      : {
          url: `http://127.0.0.1:${info.port}/mcp`,
          method: 'POST',
          connections: CONNECTIONS,
          duration: SECONDS,
          body: mcpBody,
          headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'getBuild' },
        },
  );
  return { rps: result.requests.average, p50: result.latency.p50, failures: result.non2xx + result.errors };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

try {
  // One checked call first: the bench must measure successful tool calls, not errors.
  const probe = await fetch(`http://127.0.0.1:${info.port}/mcp`, {
    method: 'POST',
    body: mcpBody,
    headers: { authorization: `Bearer ${info.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'getBuild' },
  });
  const answer = await probe.text();
  if (probe.status !== 200 || !answer.includes('"structuredContent"')) throw new Error(`tools/call getBuild failed: ${probe.status} ${answer.slice(0, 300)}`);
  await run('rest');
  await run('mcp');
  const samples = { rest: [] as Sample[], mcp: [] as Sample[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 === 0 ? (['rest', 'mcp'] as const) : (['mcp', 'rest'] as const)) samples[kind].push(await run(kind));
  }
  const row = (name: string, s: Sample[]) =>
    `${name.padEnd(32)} ${median(s.map((x) => x.rps)).toFixed(0).padStart(7)} req/s   p50 ${median(s.map((x) => x.p50)).toFixed(1)} ms   failures ${s.reduce((a, x) => a + x.failures, 0)}`;
  const ratios = samples.mcp.map((s, i) => s.rps / samples.rest[i]!.rps);
  console.log(`getBuild, ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s (medians), one simulator process`);
  console.log(row('REST GET /api/v1/builds/:id', samples.rest));
  console.log(row(`MCP tools/call getBuild (${VERSION})`, samples.mcp));
  console.log(`ratio MCP / REST: median ${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`);
  if ([...samples.rest, ...samples.mcp].some((s) => s.failures > 0)) {
    console.error('some requests failed: the figures are not comparable');
    process.exitCode = 1;
  }
} finally {
  child.kill();
}
