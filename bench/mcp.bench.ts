/**
 * `tools/call getBuild` over MCP (2026-07-28, stateless: one POST per call) against three
 * anchors measured in the same run, in rounds that rotate which goes first:
 *   (a) the SDK's own stateless server (`createMcpHandler`) with one trivial tool answering the
 *       same JSON, declared as the SDK documents a tool (`McpServer.registerTool`):
 *       what any MCP server on this SDK pays (bench/servers/sdk-mcp.ts);
 *   (a0) the same with the low-level `Server` and a bare `tools/call` handler: below what a
 *       server with a catalogue of tools can pay, shown as the floor;
 *   (b) the simulator's /mcp;
 *   (b′) the same with its fast path off: every call through the SDK, as before that path;
 *   (c) the simulator's REST `GET /api/v1/builds/:id` (same process as b).
 * Prints requests a second and server CPU a request (from /proc; a shared process's CPU is
 * counted over its own load window only), medians, and the ratios b/a and b/c per round.
 *
 *   npm run bench:mcp                    # 5 rounds of 4 s each
 *   BENCH_PIN=1 npm run bench:mcp        # servers on CPU 0, the load generator on CPU 1 (Linux, taskset)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Math.max(Number(process.env.BENCH_ROUNDS ?? 5), 1);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PIN = process.env.BENCH_PIN === '1';
const VERSION = '2026-07-28';
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface Started {
  child: ChildProcess;
  info: { port: number; path?: string; key?: string; body?: string; variant?: string };
}

/** The server's own node process (no tsx wrapper between), so its CPU can be read from /proc. */
function start(script: string, env: Record<string, string> = {}): Promise<Started> {
  const node = [process.execPath, '--import', 'tsx', script];
  const [command, ...args] = PIN ? ['taskset', '-c', '0', ...node] : node;
  const child = spawn(command!, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve({ child, info: JSON.parse(out.split('\n')[0]!) });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

/** CPU seconds (user + system) a process has used so far; NaN where /proc is not there. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

if (PIN) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
const sim = await start('bench/servers/simulator.ts');
const { port, path, key, body } = sim.info as Required<Started['info']>;
const sdk = await start('bench/servers/sdk-mcp.ts', { BENCH_KEY: key, BENCH_BODY: body, BENCH_SDK_TOOL: 'plain' });
const floor = await start('bench/servers/sdk-mcp.ts', { BENCH_KEY: key, BENCH_BODY: body, BENCH_SDK_TOOL: 'server' });
const slow = await start('bench/servers/simulator.ts', { BENCH_MCP_FAST: '0' });
// Both simulators start from the same seed: the same key and build.
if (slow.info.key !== key || slow.info.path !== path) throw new Error('the two simulators do not hold the same build');
const buildId = path.split('/').pop()!;
const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getBuild', arguments: { buildId }, _meta: meta } });
const mcpHeaders = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'getBuild' };

const KINDS = ['floor', 'sdk', 'mcp', 'mcpSdk', 'rest'] as const;
type Kind = (typeof KINDS)[number];
const LABELS: Record<Kind, string> = {
  floor: '(a0) SDK stateless, low-level Server',
  sdk: '(a) SDK stateless, registerTool',
  mcp: '(b) /mcp tools/call getBuild',
  mcpSdk: "(b′) the same, SDK path (fast off)",
  rest: '(c) REST GET /api/v1/builds/:id',
};

interface Sample {
  rps: number;
  p50: number;
  /** Server CPU microseconds a request. */
  cpuUs: number;
  failures: number;
}

async function run(kind: Kind): Promise<Sample> {
  const target = kind === 'sdk' ? sdk : kind === 'floor' ? floor : kind === 'mcpSdk' ? slow : sim;
  const url = kind === 'rest' ? `http://127.0.0.1:${port}${path}` : `http://127.0.0.1:${target.info.port}/mcp`;
  const cpuBefore = cpuSeconds(target.child.pid!);
  const result = await autocannon(
    kind === 'rest'
      ? { url, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `Bearer ${key}` } }
      : { url, method: 'POST', connections: CONNECTIONS, duration: SECONDS, body: mcpBody, headers: mcpHeaders },
  );
  const cpu = cpuSeconds(target.child.pid!) - cpuBefore;
  return { rps: result.requests.average, p50: result.latency.p50, cpuUs: (cpu / result.requests.total) * 1e6, failures: result.non2xx + result.errors };
}

/** One checked call first: the bench must measure successful tool calls, not errors, and the same JSON on both. */
async function structuredContentOf(port: number): Promise<string> {
  const probe = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: mcpBody, headers: mcpHeaders });
  const answer = await probe.text();
  if (probe.status !== 200 || !answer.includes('"structuredContent"')) throw new Error(`tools/call getBuild failed: ${probe.status} ${answer.slice(0, 300)}`);
  return JSON.stringify((JSON.parse(answer) as { result: { structuredContent: unknown } }).result.structuredContent);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

try {
  const ours = await structuredContentOf(port);
  // The second simulator holds the same build made a moment later: it answers its own sample.
  if ((await structuredContentOf(slow.info.port)) !== JSON.stringify(JSON.parse(slow.info.body!))) throw new Error('the SDK-path simulator does not answer its build');
  for (const anchor of [sdk, floor]) {
    if ((await structuredContentOf(anchor.info.port)) !== ours) throw new Error('an SDK anchor does not answer the same JSON as /mcp');
  }
  for (const kind of KINDS) await run(kind); // warm-up, not counted
  const samples = Object.fromEntries(KINDS.map((k) => [k, [] as Sample[]])) as Record<Kind, Sample[]>;
  for (let round = 0; round < ROUNDS; round++) {
    // Each round in another order, so no server always runs on the warmest (or most tired) machine.
    for (const kind of KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]!)) samples[kind].push(await run(kind));
  }
  const row = (kind: Kind) => {
    const s = samples[kind];
    const cpu = median(s.map((x) => x.cpuUs));
    return `${LABELS[kind].padEnd(34)} ${median(s.map((x) => x.rps)).toFixed(0).padStart(7)} req/s   ${Number.isNaN(cpu) ? '   n/a' : cpu.toFixed(0).padStart(6)} µs CPU/req   p50 ${median(s.map((x) => x.p50)).toFixed(1)} ms   failures ${s.reduce((a, x) => a + x.failures, 0)}`;
  };
  const ratio = (label: string, a: Kind, b: Kind, of: (s: Sample) => number) => {
    const rs = samples[a].map((s, i) => of(s) / of(samples[b][i]!));
    if (rs.some(Number.isNaN)) return;
    console.log(`${label.padEnd(34)} median ${median(rs).toFixed(2)} (rounds: ${rs.map((r) => r.toFixed(2)).join(', ')})`);
  };
  console.log(`getBuild, ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s (medians)${PIN ? ', servers pinned to CPU 0, load on CPU 1' : ''}`);
  for (const kind of KINDS) console.log(row(kind));
  ratio('b/a req/s (target ≥ 0.95)', 'mcp', 'sdk', (s) => s.rps);
  ratio('b/a0 req/s', 'mcp', 'floor', (s) => s.rps);
  ratio('b/c req/s', 'mcp', 'rest', (s) => s.rps);
  // Per CPU-second: the inverse ratio of CPU a request.
  ratio('b/a per server CPU-second', 'sdk', 'mcp', (s) => s.cpuUs);
  ratio('b/a0 per server CPU-second', 'floor', 'mcp', (s) => s.cpuUs);
  ratio("b′/a per server CPU-second", 'sdk', 'mcpSdk', (s) => s.cpuUs);
  ratio("b/b′ per server CPU-second", 'mcpSdk', 'mcp', (s) => s.cpuUs);
  ratio('b/c per server CPU-second', 'rest', 'mcp', (s) => s.cpuUs);
  if (KINDS.some((k) => samples[k].some((s) => s.failures > 0))) {
    console.error('some requests failed: the figures are not comparable');
    process.exitCode = 1;
  }
} finally {
  sim.child.kill();
  sdk.child.kill();
  floor.child.kill();
  slow.child.kill();
}
