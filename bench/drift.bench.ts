/**
 * The time `content-contracts drift` takes to replay a 1,000-call recording against the simulator
 * (its own process, as the CLI serves it), and, as the baseline of the same run, the time the
 * recorded client took to make those calls through the recording proxy. Each replay runs on a
 * fresh account and moves its clock where the recording's moved (every fifth call here). The
 * requirement: under 10 s on the 2-core development machine.
 *
 *   npm run bench                                   # includes this
 *   BENCH_DRIFT_CALLS=1000 BENCH_DRIFT_ROUNDS=3 tsx bench/drift.bench.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Har } from '../contracts/shared/har.js';
import { replayRecording } from '../contracts/drift/replay.js';
import { formatDrift } from '../contracts/drift/report.js';
import { runProxy } from '../contracts/proxy/command.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CALLS = Number(process.env.BENCH_DRIFT_CALLS ?? 1000);
const ROUNDS = Number(process.env.BENCH_DRIFT_ROUNDS ?? 3);

function startSimulator(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', '--port', '0', '--speed', 'realistic'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const match = /listening on\s+(http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`the simulator exited ${code}: ${out}`)));
  });
}

async function post(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * A client's long session, `CALLS` calls: a build, polled every other call until it completes, its
 * deliverable and both downloads, then the next build; the balance and the target list between.
 * The account's clock moves 15 s every 5 calls (the client's pace: within every rate limit).
 */
async function record(simulator: string, file: string): Promise<number> {
  const proxy = await runProxy({ target: simulator, level: 'documented', record: file });
  const started = performance.now();
  const account = await post(`${simulator}/_sim/accounts`, { name: 'Bench client', balance: 1000, clock: { own: true } });
  await post(`${simulator}/_sim/accounts/${account.accountId}/clock/freeze`, {});
  const key = account.keys.readWrite as string;
  let calls = 0;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${proxy.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    if (++calls % 5 === 0) await post(`${simulator}/_sim/accounts/${account.accountId}/clock/advance`, { ms: 15_000 });
    return text.startsWith('{') ? JSON.parse(text) : undefined;
  };
  const target = await call('POST', '/api/v1/targets', { name: 'Bench', slug: 'bench', description: 'Bench', brandKit: { voice: 'plain', tone: 'calm' } });
  let build: string | undefined;
  while (calls < CALLS) {
    if (!build) {
      build = (await call('POST', '/api/v1/builds', { targetId: target.id, buildType: 'single', kind: 'blog', objective: `Bench ${calls}`, researchPolicy: 'required' }, { 'idempotency-key': `bench-${calls}` })).buildId;
    } else if (calls % 2 === 0) {
      const answer = await call('GET', `/api/v1/builds/${build}`);
      if (answer.build.status === 'completed' && calls + 3 <= CALLS) {
        const deliverable = answer.deliverables[0].id;
        await call('GET', `/api/v1/deliverables/${deliverable}`);
        await call('GET', `/api/v1/deliverables/${deliverable}/download?format=md`);
        await call('GET', `/api/v1/deliverables/${deliverable}/download?format=html`);
        build = undefined;
      }
    } else await call('GET', calls % 3 === 0 ? '/api/v1/targets' : '/api/v1/tokens/balance');
  }
  const elapsed = performance.now() - started;
  await proxy.stop();
  return elapsed;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  const simulator = await startSimulator();
  const file = join(mkdtempSync(join(tmpdir(), 'drift-bench-')), 'session.har');
  try {
    const recordMs = await record(simulator.url, file);
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    const times: number[] = [];
    const drifts: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const result = await replayRecording({ har, baseUrl: simulator.url });
      times.push(performance.now() - started);
      drifts.push(...result.drifts.map(formatDrift));
    }
    const replay = median(times);
    console.log(`content-contracts drift: a ${har.log.entries.length}-call recording replayed against the simulator (realistic pipeline, a fresh account each round, its clock moved where the recording's moved), ${ROUNDS} rounds`);
    console.log(`replay: median ${(replay / 1000).toFixed(2)} s (rounds: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')}); ${drifts.length} difference(s) found${drifts.length ? `:\n  ${drifts.slice(0, 10).join('\n  ')}` : ''}`);
    console.log(`baseline, the recorded client through the recording proxy: ${(recordMs / 1000).toFixed(2)} s; ratio replay / recording ${(replay / recordMs).toFixed(2)}`);
    console.log(`requirement, under 10 s: ${replay < 10_000 ? 'met' : 'NOT MET'}`);
  } finally {
    simulator.child.kill();
  }
}

await main();
