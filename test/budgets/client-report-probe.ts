/**
 * The measurements of client-report-budget.test.ts, in a fresh process started with --expose-gc
 * (and a large young generation, so that no collection runs inside a round): the bytes the
 * client report allocates judging one exchange, fed as the engine feeds it after answering.
 * The exchanges are made beforehand by a simulator with the report off (each answer a fresh
 * string, as the engine makes it), so the heap's growth across the calls is the report's alone:
 * what turning it on adds to a request. Prints one JSON line.
 *
 *   node --expose-gc --max-semi-space-size=64 --import tsx test/budgets/client-report-probe.ts
 */
import { UNLIMITED } from '../../src/cli/options.js';
import { ClientReport } from '../../src/client-report/client-report.js';
import { RULE_IDS } from '../../src/client-report/rules.js';
import type { ExchangeFacts } from '../../src/engine/engine-hooks.js';
import type { EngineRequest, EngineResponse } from '../../src/engine/types.js';
import { createSimulator } from '../../src/simulator.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

type Exchange = [EngineRequest, EngineResponse, ExchangeFacts];

const PER_ROUND = 1000;
const ROUNDS = 9;

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const sim = createSimulator({ seed: 'budget', frozenAt: '2026-03-02T09:00:00Z', rateLimits: UNLIMITED, clientRulesOff: RULE_IDS });
const key = sim.internal.store.findKey(sim.keys.readWrite)!;
const account = sim.internal.store.account(key.accountId)!;
account.balance = 1e12;
const authorization = `Bearer ${sim.keys.readWrite}`;
const headers = { authorization, 'content-type': 'application/json' };
const targetId = JSON.parse(sim.handle({ method: 'POST', url: '/api/v1/targets', headers, body: encode({ name: 'Budget', slug: 'budget' }) }).body as string).id as string;
const buildId = JSON.parse(sim.handle({ method: 'POST', url: '/api/v1/builds', headers: { ...headers, 'idempotency-key': 'first' }, body: encode({ targetId, kind: 'blog', objective: 'Budgets' }) }).body as string).buildId as string;

/** An exchange as the engine hands it to the report: a new request and answer each time (the URL, a string the adapter read, is flat). */
function exchange(request: EngineRequest, operationId: string): Exchange {
  // As the engine hands them: the account it authenticated, and the real time the request came.
  return [request, sim.handle(request), { correlationId: 'corr_budget', now: sim.clock.now(), accountId: key.accountId, account, realAt: performance.now(), credentialId: key.id, operationId }];
}
const flat = (text: string) => Buffer.from(text).toString();
const buildUrl = flat(`/api/v1/builds/${buildId}`);
let made = 0;
const makers: Record<string, () => Exchange> = {
  // The same build read again and again, with the clock frozen: each read a poll too fast, counted.
  getBuild: () => exchange({ method: 'GET', url: buildUrl, headers: { ...headers } }, 'getBuild'),
  getBalance: () => exchange({ method: 'GET', url: '/api/v1/tokens/balance', headers: { ...headers } }, 'getTokenBalance'),
  // A well-behaved client's creations: a new body under a new key each, past the tables' capacity.
  create: () => {
    const body = encode({ targetId, kind: 'blog', objective: `Budget ${made++}` });
    return exchange({ method: 'POST', url: '/api/v1/builds', headers: { ...headers, 'idempotency-key': crypto.randomUUID() }, body }, 'createBuild');
  },
};

/** Bytes the report allocates an exchange: the median over rounds of the heap's growth across `PER_ROUND` exchanges made before the round. */
function reportBytes(report: ClientReport, make: () => Exchange): number {
  const feed = (exchanges: Exchange[]) => {
    // Indexed, arguments passed one by one: an iterator or a spread would allocate on some Node versions, and count here.
    for (let i = 0; i < exchanges.length; i++) {
      const x = exchanges[i] as Exchange;
      report.observe(x[0], x[1], x[2]);
    }
  };
  for (let i = 0; i < 5; i++) feed(Array.from({ length: PER_ROUND }, make)); // warm: optimized code, tables full
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const exchanges = Array.from({ length: PER_ROUND }, make);
    gc!();
    const before = process.memoryUsage().heapUsed;
    feed(exchanges);
    samples.push((process.memoryUsage().heapUsed - before) / PER_ROUND);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[samples.length >> 1]!);
}

const result: Record<string, number> = {};
for (const [name, make] of Object.entries(makers)) {
  // A report of its own for each kind of exchange, judging the simulator's accounts, as the simulator's own does.
  const report = new ClientReport({ account: (id) => sim.internal.store.account(id), revokedKeyOwner: () => undefined, realNow: () => performance.now() });
  result[name] = reportBytes(report, make);
  const findings = report.report(key.accountId)!.findings.map((f) => f.rule);
  // The feed was judged (not skipped): the polls are too fast, the creations break nothing.
  result[`${name}Findings`] = findings.length;
  if (name === 'getBuild' && !findings.includes('poll-too-fast')) throw new Error(`the polls were not judged: ${findings.join(', ')}`);
}
process.stdout.write(`${JSON.stringify(result)}\n`);
