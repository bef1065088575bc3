/**
 * The measurements of budgets.test.ts, each in a fresh process started with --expose-gc (and a
 * large young generation, so the loops measured run between collections): bytes allocated per
 * GET through the node:http listener, per exchange the journal keeps, and bytes of heap kept per
 * build and per account not yet used. Prints one JSON line. Heap counts, not time: the figures do not depend on the load.
 *
 *   node --expose-gc --max-semi-space-size=64 --import tsx test/budgets/budget-probe.ts get|build
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { UNLIMITED } from '../../src/cli/options.js';
import { Journal } from '../../src/observe/journal.js';
import { createSimulator } from '../../src/simulator.js';
import { Account } from '../../src/store/account.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

/** Bytes allocated a call: the median over rounds of the heap's growth across `perRound` calls (a round a collection interrupted grows less, and the median leaves it out). */
function allocatedPerCall(call: () => void, perRound = 500, rounds = 15): number {
  for (let i = 0; i < 5000; i++) call(); // warm: optimized code, caches filled
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    gc!();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < perRound; i++) call();
    samples.push((process.memoryUsage().heapUsed - before) / perRound);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[samples.length >> 1]!);
}

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function simulatorWithBuild() {
  const sim = createSimulator({ seed: 'budget', speed: 'instant', rateLimits: UNLIMITED, frozenAt: '2026-03-02T09:00:00Z' });
  const key = sim.keys.readWrite;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const target = JSON.parse(sim.handle({ method: 'POST', url: '/api/v1/targets', headers, body: encode({ name: 'Budget', slug: 'budget' }) }).body as string);
  const build = JSON.parse(sim.handle({ method: 'POST', url: '/api/v1/builds', headers, body: encode({ targetId: target.id, kind: 'blog', objective: 'Budgets' }) }).body as string);
  return { sim, key, headers, target, path: `/api/v1/builds/${build.buildId as string}` };
}

function measureGet() {
  const { sim, key, path } = simulatorWithBuild();
  const handler = createNodeHandler(sim);
  // What node:http hands the listener, reduced to what it reads: one keep-alive connection, its request, a response that sends nothing.
  const socket = { remoteAddress: '127.0.0.1', destroy() {} };
  const authorization = `Bearer ${key}`;
  const req = { method: 'GET', url: path, headers: { host: '127.0.0.1', authorization }, rawHeaders: ['Host', '127.0.0.1', 'Authorization', authorization], socket } as unknown as IncomingMessage;
  let status = 0;
  const res = { destroyed: false, headersSent: false, writeHead: (code: number) => void (status = code), end: () => undefined } as unknown as ServerResponse;
  const getBytes = allocatedPerCall(() => handler(req, res));
  if (status !== 200) throw new Error(`GET answered ${status}`);

  // The journal alone: keeping an exchange, nobody reading.
  const journal = new Journal(1000);
  const request = { method: 'GET', url: path, headers: { authorization, accept: 'application/json', 'idempotency-key': 'k' } };
  const response = { status: 200, headers: { 'content-type': 'application/json', 'x-correlation-id': 'corr_1', 'x-ratelimit-limit': '60' }, body: '{"id":"x"}' };
  const facts = { correlationId: 'corr_1', now: 0, keyHint: 'svc_live_…abcd', operationId: 'getBuild', accountId: 'a' };
  const recordBytes = allocatedPerCall(() => journal.record(request, response, facts, 0.5));
  return { getBytes, recordBytes };
}

/** Heap kept per build, as bench/memory.bench.ts counts it (charged, half read once, all completed), at a size a test can afford. */
function measureBuild() {
  const n = 20_000;
  const sim = createSimulator({ journalSize: 1000, frozenAt: '2026-03-02T09:00:00Z', rateLimits: UNLIMITED });
  const headers = { authorization: `Bearer ${sim.keys.readWrite}`, 'content-type': 'application/json' };
  const target = JSON.parse(sim.handle({ method: 'POST', url: '/api/v1/targets', headers, body: encode({ name: 'Budget', slug: 'budget' }) }).body as string);
  sim.internal.store.account(sim.internal.store.findKey(sim.keys.readWrite)!.accountId)!.balance = 1_000_000_000;
  const create = { method: 'POST', url: '/api/v1/builds', headers, body: encode({ targetId: target.id, kind: 'blog', objective: 'Memory that holds the line' }) };
  gc!();
  gc!();
  const before = process.memoryUsage().heapUsed;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const answer = sim.handle(create);
    if (answer.status !== 202) throw new Error(`a build was refused: ${answer.status} ${answer.body as string}`);
    if (i % 2 === 0) ids.push(JSON.parse(answer.body as string).buildId as string);
  }
  sim.clock.advance(24 * 3_600_000);
  for (const id of ids) sim.handle({ method: 'GET', url: `/api/v1/builds/${id}`, headers });
  ids.length = 0;
  gc!();
  gc!();
  const buildBytes = Math.round((process.memoryUsage().heapUsed - before) / n);
  if (sim.internal.store.accounts.size === 0) throw new Error('no account'); // keeps the simulator alive until measured
  return { buildBytes };
}

/** Heap an account holds before it is used (no key, no record): what a store of many idle accounts pays each. */
function measureAccount() {
  const n = 20_000;
  const accounts: Account[] = [];
  gc!();
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) accounts.push(new Account(`account-${i}`, 'Budget', 1_772_442_000_000, 'budget'));
  gc!();
  gc!();
  const accountBytes = Math.round((process.memoryUsage().heapUsed - before) / n);
  if (accounts.length !== n) throw new Error('accounts lost'); // keeps them alive until measured
  return { accountBytes };
}

const what = process.argv[2];
process.stdout.write(`${JSON.stringify(what === 'build' ? { ...measureBuild(), ...measureAccount() } : measureGet())}\n`);
