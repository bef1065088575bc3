import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { DurableState } from '../../src/persist/durable-state.js';
import { taskSession } from '../mcp/task-clients.js';
import { startCli } from '../support/cli-server.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';
import { call, killAll, postLarge, serveWithState, type Running } from './durable-support.js';

/**
 * What a request costs with a state file is what the caller's own account holds: thousands of
 * MCP tasks in other accounts (each within its cap of a hundred) change nothing of another
 * account's read, and a listing of one account's tasks reads a page of its own.
 */
const stops: Array<() => void> = [];
afterEach(() => {
  killAll();
  for (const stop of stops.splice(0)) stop();
});

const ACCOUNTS = 72;
const TASKS_EACH = 100;
const encoder = new TextEncoder();

interface Seeded {
  simulator: Simulator;
  /** A key of an account with no tasks, and of one with a hundred. */
  bystander: string;
  busy: string;
}

function handle(simulator: Simulator, method: string, url: string, key: string | null, body?: unknown) {
  return simulator.handle(
    { method, url, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: encoder.encode(JSON.stringify(body)) }) },
    { controlTrusted: true },
  );
}

/** The answer, checked against the contracts. */
function checked(method: string, url: string, response: ReturnType<typeof handle>) {
  const text = typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
  assertContract({ method, url, status: response.status, headers: response.headers, body: text });
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

function send(simulator: Simulator, method: string, url: string, key: string | null, body?: unknown) {
  return checked(method, url, handle(simulator, method, url, key, body));
}

/** `accounts` accounts of `tasksEach` MCP tasks each (made in-process, as the task service makes them), and one with none. */
function seed(seedName: string, accounts: number, tasksEach: number): Seeded {
  const simulator = createSimulator({ seed: seedName, onFault: () => {} });
  const keys: string[] = [];
  for (let i = 0; i < accounts + 1; i++) {
    const made = send(simulator, 'POST', '/_sim/accounts', null, { name: `Account ${i}`, balance: 1000 });
    expect(made.status).toBe(201);
    keys.push(made.body.keys.readWrite);
  }
  keys.slice(1).forEach((key, i) => {
    const target = send(simulator, 'POST', '/api/v1/targets', key, { name: 'T', slug: `t-${i}`, description: 'd', brandKit: { voice: 'v', tone: 't' } });
    const build = send(simulator, 'POST', '/api/v1/builds', key, { targetId: target.body.id, buildType: 'single', kind: 'blog', objective: 'Cold brew at home', researchPolicy: 'none' });
    expect(build.status).toBe(202);
    const account = simulator.internal.store.findKey(key)!.accountId;
    const tasks = simulator.internal.store.account(account)!.mcpTasks;
    const now = simulator.clock.now();
    for (let t = 0; t < tasksEach; t++) {
      tasks.add({ id: randomUUID(), tool: 'createBuild', buildId: build.body.buildId, answer: JSON.stringify({ buildId: build.body.buildId, correlationId: build.body.correlationId }), createdAt: now, ttlMs: 7 * 24 * 3_600_000, cancelRequestedAt: null });
    }
  });
  return { simulator, bystander: keys[0]!, busy: keys[1]! };
}

/** Characters `JSON.stringify` writes while `run` runs and its answer becomes durable: what serialization costs. */
async function stringified(run: () => Promise<void> | void): Promise<number> {
  const original = JSON.stringify;
  let chars = 0;
  const spy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
    const text = original(...args);
    chars += text?.length ?? 0;
    return text;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return chars;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

describe('the cost of a request with a state file', () => {
  it('does not grow with the MCP tasks of other accounts: a read and a write serialize the same with none or thousands', async () => {
    const measure = async (tasksEach: number) => {
      const { simulator, bystander } = seed('cost', 8, tasksEach);
      const durable = new DurableState(simulator, { path: join(mkdtempSync(join(tmpdir(), 'sim-cost-')), 'state.json'), durability: 'every-write', intervalMs: 60_000, onError: (line) => { throw new Error(line); } }, undefined);
      try {
        // The answers are checked once measured: the contract's validators are compiled on first use.
        let balance!: ReturnType<typeof handle>;
        let created!: ReturnType<typeof handle>;
        const target = { name: 'Mine', slug: 'mine', description: 'd', brandKit: { voice: 'v', tone: 't' } };
        const read = await stringified(async () => void (await (balance = handle(simulator, 'GET', '/api/v1/tokens/balance', bystander)).durable));
        const write = await stringified(async () => void (await (created = handle(simulator, 'POST', '/api/v1/targets', bystander, target)).durable));
        expect(checked('GET', '/api/v1/tokens/balance', balance).status).toBe(200);
        expect(checked('POST', '/api/v1/targets', created).status).toBe(201);
        return { read, write };
      } finally {
        await durable.stop();
      }
    };
    const none = await measure(0);
    const many = await measure(TASKS_EACH);
    // 800 tasks of about 200 characters each: compared whole at a commit, they would add 160,000
    // (741,897 measured so). What may differ by a few hundred is the simulator-wide record a
    // commit logs when it is due (the clock's setting, where the id streams stand).
    expect(Math.abs(many.read - none.read), `read: ${none.read} with none, ${many.read} with ${TASKS_EACH} tasks each`).toBeLessThan(2_000);
    expect(Math.abs(many.write - none.write), `write: ${none.write} with none, ${many.write} with ${TASKS_EACH} tasks each`).toBeLessThan(2_000);
    expect(none.write).toBeLessThan(20_000);
  });

  it.skipIf(repeatRun)(`keeps another account's read within 2× of the same state without a state file, and tasks/list under 50 ms, with ${ACCOUNTS * TASKS_EACH} tasks`, { timeout: 120_000 }, async () => {
    // The state is made in-process and restored whole into both servers: no thousands of calls.
    const probe = await serveWithState(join(mkdtempSync(join(tmpdir(), 'sim-cost-')), 'probe.json'));
    const serverSeed = (await call(probe, 'GET', '/_sim/snapshot')).body.seed as string;
    const { simulator, bystander, busy } = seed(serverSeed, ACCOUNTS, TASKS_EACH);
    const snapshot = JSON.stringify(simulator.snapshot());
    const durable: Running = probe;
    // The same CLI without a state file, beside it: what the machine alone makes of the same read.
    const plain = await startCli(['--no-rate-limits']);
    stops.push(plain.stop);
    const reference = { base: plain.baseUrl, key: plain.key } as Running;
    for (const run of [durable, reference]) expect((await postLarge(run, '/_sim/restore', snapshot)).status).toBe(200);

    const timed = async (run: Running) => {
      const started = performance.now();
      const answer = await call(run, 'GET', '/api/v1/tokens/balance', undefined, {}, bystander);
      expect(answer.status).toBe(200);
      return performance.now() - started;
    };
    for (const run of [durable, reference]) for (let i = 0; i < 5; i++) await timed(run); // connections set up
    const withState: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < 60; i++) {
      withState.push(await timed(durable));
      without.push(await timed(reference));
    }
    const ratio = median(withState) / median(without);
    const summary = `median ${median(withState).toFixed(2)} ms with a state file, ${median(without).toFixed(2)} ms without (${ratio.toFixed(2)}×)`;
    expect(ratio, summary).toBeLessThan(2);

    // One account's hundred tasks, listed page by page over MCP from the account's own records.
    const client = new Client({ name: 'cost-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${durable.base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${busy}` } } }));
    const session = taskSession(client, '2025-11-25', `${durable.base}/mcp`, busy, 'cost-test');
    const listings: number[] = [];
    const pings: number[] = [];
    let listed: string[] = [];
    for (let i = 0; i < 9; i++) {
      const pinged = performance.now();
      await client.ping();
      pings.push(performance.now() - pinged);
      const started = performance.now();
      listed = [];
      let cursor: string | undefined;
      do {
        const page = await session.listTasks(cursor);
        listed.push(...page.tasks.map((t) => t.taskId));
        cursor = page.nextCursor;
      } while (cursor);
      listings.push((performance.now() - started) / 2);
    }
    expect(new Set(listed).size).toBe(TASKS_EACH);
    // The quickest of nine: what a page costs the server, whatever else the machine ran meanwhile
    // (a page read from every account's tasks took seconds). On a machine so busy that an MCP ping
    // alone takes over 16 ms, the bound is three pings instead.
    const bound = Math.max(50, 3 * Math.min(...pings));
    expect(Math.min(...listings), `tasks/list pages: ${listings.map((ms) => ms.toFixed(1)).join(', ')} ms; pings ${pings.map((ms) => ms.toFixed(1)).join(', ')} ms`).toBeLessThan(bound);
    await client.close();
  });
});
