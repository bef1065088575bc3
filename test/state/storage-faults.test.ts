import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DurableState, type Durability } from '../../src/persist/durable-state.js';
import { recoverState } from '../../src/persist/recover.js';
import { readStateFile } from '../../src/persist/state-file.js';
import { createSimulator, type Simulator } from '../../src/simulator.js';
import { performFault } from '../../src/app/fault-effects.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';
import { arm, disarm, kill, revive, type FaultKind, type FaultPoint } from './storage-shim.js';

/**
 * Storage fault injection, as databases test themselves: each write, sync, rename, create,
 * truncate and unlink of the durable layer fails in turn (ENOSPC, EIO, EEXIST, EACCES, a short
 * write) under a load of creations, purchases, restores, resets and checkpoints; then the
 * process dies (nothing more reaches the disk) and starts again on the same files. Every
 * answered change is there, nothing refused is there, no id is given twice, the ledger sums,
 * in both durability modes.
 */

interface Kept {
  simulator: Simulator;
  state: DurableState;
}

const errors: string[] = [];

function start(path: string, durability: Durability): Kept {
  const simulator = createSimulator({ onFault: () => {} });
  const saved = readStateFile(path);
  const recovered = saved ? recoverState(simulator, path, saved.snapshot) : undefined;
  const state = new DurableState(simulator, { path, durability, intervalMs: 60_000, retryMs: 5, onError: (line) => errors.push(line) }, recovered?.nextSegment);
  return { simulator, state };
}

/** Waits (a loaded machine may take a while) until `done`, which reads the durable layer's state. */
async function until(what: string, done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !done(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
  }
}

/** Whether no write is waiting or under way: what was answered has reached the kernel (interval mode writes after the answer). */
function written(kept: Kept): boolean {
  const state = kept.state as unknown as { scheduled: boolean; flushing: Promise<void> | null };
  return !state.scheduled && state.flushing === null;
}

/** SIGKILL, in-process: no timer of the dead process runs again, and nothing more reaches the disk. */
async function crash(kept: Kept): Promise<void> {
  const dying = kept.state as unknown as { timer?: NodeJS.Timeout; health: { retryTimer?: NodeJS.Timeout }; stopping: boolean };
  kill();
  dying.stopping = true;
  clearInterval(dying.timer);
  clearTimeout(dying.health.retryTimer);
  await new Promise((resolve) => setTimeout(resolve, 20));
  revive();
}

async function call(simulator: Simulator, method: string, url: string, body?: unknown, control = false) {
  const response = simulator.handle({
    method,
    url,
    headers: { ...(control ? {} : { authorization: `Bearer ${simulator.keys.readWrite}` }), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: new TextEncoder().encode(JSON.stringify(body)) } : {}),
  });
  // As every adapter sends it: a change that could not be made durable becomes its refusal.
  const { status, headers, body: out } = await performFault(response);
  const text = typeof out === 'string' ? out : new TextDecoder().decode(out);
  assertContract({ method, url, status, headers, body: text });
  return { status, headers, body: text ? JSON.parse(text) : undefined };
}

/** What the answers promised: the targets that must be there, those that must not, and the balance. */
interface Model {
  targets: Map<string, string>;
  refused: Set<string>;
  balance: number;
  ids: Set<string>;
}

async function targetsOf(simulator: Simulator): Promise<Map<string, string>> {
  const all = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const page = await call(simulator, 'GET', `/api/v1/targets?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    for (const t of page.body.data) all.set(t.id, t.name);
    cursor = page.body.nextCursor;
  } while (cursor);
  return all;
}

const balanceOf = async (simulator: Simulator) => (await call(simulator, 'GET', '/api/v1/tokens/balance')).body.balance as number;

/** One step of the load; the model follows what each answer said. */
async function step(kept: Kept, model: Model, i: number, saved: { snapshot?: unknown; model?: Model }): Promise<number> {
  const { simulator } = kept;
  const kind = i % 7;
  if (kind === 3) {
    const bought = await call(simulator, 'POST', '/api/v1/tokens/purchases', { bundleId: 'starter' });
    if (bought.status === 201) model.balance = await balanceOf(simulator);
    return bought.status;
  }
  if (kind === 4 && i % 14 === 4) {
    saved.snapshot = (await call(simulator, 'GET', '/_sim/snapshot', undefined, true)).body;
    saved.model = { ...model, targets: new Map(model.targets), refused: new Set(model.refused), ids: new Set(model.ids) };
    kept.state.compactSoon();
    return 200;
  }
  if (kind === 5 && saved.snapshot && saved.model) {
    const restored = await call(simulator, 'POST', '/_sim/restore', saved.snapshot, true);
    if (restored.status === 200) {
      for (const [id, name] of model.targets) if (!saved.model.targets.has(id)) model.refused.add(name);
      model.targets = new Map(saved.model.targets);
      // What the snapshot held is back, even what was lost since.
      for (const name of saved.model.targets.values()) model.refused.delete(name);
      model.balance = saved.model.balance;
      // A restore sets the id streams back too: the ids given since are given again (as documented).
      model.ids = new Set(saved.model.ids);
    }
    return restored.status;
  }
  const name = `t${i}`;
  const created = await call(simulator, 'POST', '/api/v1/targets', { name, slug: name });
  if (created.status === 201) {
    expect(model.ids.has(created.body.id)).toBe(false);
    model.ids.add(created.body.id);
    model.targets.set(created.body.id, name);
  } else if (created.status === 503) {
    model.refused.add(name);
  }
  return created.status;
}

async function run(durability: Durability, point: FaultPoint, fault: FaultKind, skip: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sim-faults-'));
  const path = join(dir, 'state.json');
  let kept = start(path, durability);
  const model: Model = { targets: new Map(), refused: new Set(), balance: await balanceOf(kept.simulator), ids: new Set() };
  const saved: { snapshot?: unknown; model?: Model } = {};
  const armed = arm(point, fault, skip, 2);
  let refusedAfterFailure = 0;
  for (let i = 0; i < 40; i++) {
    const before = armed.fired;
    const status = await step(kept, model, i, saved);
    expect([200, 201, 503]).toContain(status);
    if (status === 503) refusedAfterFailure++;
    if (i % 5 === 4) await new Promise((resolve) => setTimeout(resolve, 10));
    // Interval mode acknowledges before the write: the changes answered in the turn the write failed in may be lost, no more.
    if (durability === 'interval' && armed.fired > before) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const live = await targetsOf(kept.simulator);
      for (const [id, name] of model.targets) if (!live.has(id)) (model.targets.delete(id), model.refused.add(name));
      model.balance = await balanceOf(kept.simulator);
    }
  }
  disarm();
  // Storage works again: the next change is accepted (the retry found the disk back).
  await until('the retry finds the disk back', () => kept.state.problem === null);
  expect(await step(kept, model, 41, saved)).toBe(201);
  // The write reaches the kernel (interval mode writes right after the answer), then the process dies.
  await until('the last write reaches the kernel', () => written(kept));
  const live = await targetsOf(kept.simulator);
  await crash(kept);
  kept = start(path, durability);
  const recovered = await targetsOf(kept.simulator);
  const where = `${durability} ${point} ${fault} after ${skip} (fired ${armed.fired}, ${refusedAfterFailure} refused)`;
  expect([...recovered].sort(), where).toEqual([...model.targets].sort());
  expect([...recovered].sort(), where).toEqual([...live].sort());
  for (const name of recovered.values()) expect(model.refused.has(name), `${where}: ${name} was refused`).toBe(false);
  expect(await balanceOf(kept.simulator), where).toBe(model.balance);
  // The ledger sums: every transaction's amount adds up to the balance.
  const transactions = (await call(kept.simulator, 'GET', '/api/v1/tokens/transactions?limit=100')).body.data as Array<{ amount: number }>;
  expect(transactions.reduce((sum, t) => sum + t.amount, 0), where).toBe(model.balance);
  // Ids are never given twice: the next ones are new.
  for (let i = 0; i < 3; i++) {
    const created = await call(kept.simulator, 'POST', '/api/v1/targets', { name: `after${i}`, slug: `after${i}` });
    expect(created.status).toBe(201);
    expect(model.ids.has(created.body.id), where).toBe(false);
    model.ids.add(created.body.id);
  }
  await kept.state.stop();
  rmSync(dir, { recursive: true, force: true }); // kept when the run failed, to be looked at
}

const POINTS: Array<[FaultPoint, FaultKind[]]> = [
  ['write', ['ENOSPC', 'EIO', 'short']],
  ['sync', ['EIO', 'ENOSPC']],
  ['rename', ['EACCES', 'EIO']],
  ['create', ['EEXIST', 'EACCES', 'ENOSPC']],
  ['unlink', ['EACCES']],
  ['truncate', ['EIO']],
];

afterEach(() => revive());

describe.skipIf(repeatRun).each(['every-write', 'interval'] as const)('storage faults, %s', (durability) => {
  for (const [point, faults] of POINTS) {
    it(`${point} failing (${faults.join(', ')}) at each moment loses nothing answered and keeps nothing refused`, async () => {
      for (const fault of faults) for (const skip of [0, 3, 9]) await run(durability, point, fault, skip);
    }, 60_000);
  }
});
