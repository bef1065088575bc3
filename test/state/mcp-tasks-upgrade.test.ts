import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/simulator.js';
import { recoverState } from '../../src/persist/recover.js';
import { recordLine, segmentPath } from '../../src/persist/log-file.js';

/**
 * MCP tasks are records of their account. Snapshots and state files saved before held every
 * account's tasks in one list at the top (`mcpTasks`), and their logs recorded that list whole
 * (`["v","extras",{"mcpTasks":[…]}]`) with account headers that name nine collections: both are
 * still read, the tasks landing in the accounts they name.
 */
const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const encoder = new TextEncoder();

function seeded() {
  const simulator = createSimulator({ frozenAt: T0, onFault: () => {} });
  const handle = (method: string, url: string, body: unknown) => {
    const response = simulator.handle({ method, url, headers: { authorization: `Bearer ${simulator.keys.readWrite}`, 'content-type': 'application/json' }, body: encoder.encode(JSON.stringify(body)) });
    return JSON.parse(response.body as string);
  };
  const target = handle('POST', '/api/v1/targets', { name: 'T', slug: 't', description: 'd', brandKit: { voice: 'v', tone: 't' } });
  const build = handle('POST', '/api/v1/builds', { targetId: target.id, buildType: 'single', kind: 'blog', objective: 'Cold brew', researchPolicy: 'none' });
  const accountId = simulator.internal.store.findKey(simulator.keys.readWrite)!.accountId;
  return { simulator, buildId: build.buildId as string, accountId };
}

const legacyTask = (accountId: string, buildId: string) => ({ taskId: randomUUID(), accountId, tool: 'createBuild', buildId, answer: JSON.stringify({ buildId }), createdAt: T0, ttlMs: 3_600_000, cancelRequestedAt: null });

/** The snapshot as it was saved before: no task collection in the accounts, one list at the top. */
function legacyForm(snapshot: any, tasks: unknown[]): any {
  for (const account of snapshot.accounts) delete account.mcpTasks;
  return { ...snapshot, mcpTasks: tasks };
}

const tasksOf = (snapshot: any, accountId: string) => snapshot.accounts.find((a: any) => a.id === accountId).mcpTasks.entries.map(([, t]: any) => t.id);

describe('MCP tasks saved in the earlier form', () => {
  it('restore from a snapshot whose tasks are one list at the top, into the accounts they name', () => {
    const { simulator, buildId, accountId } = seeded();
    const task = legacyTask(accountId, buildId);
    simulator.restore(legacyForm(simulator.snapshot(), [task]));
    const saved = simulator.snapshot();
    expect(tasksOf(saved, accountId)).toEqual([task.taskId]);
    expect(saved).not.toHaveProperty('mcpTasks');
    // A task of an account the snapshot does not hold is refused, at its place in the list.
    expect(() => simulator.restore(legacyForm(simulator.snapshot(), [legacyTask(randomUUID(), buildId)]))).toThrow(/mcpTasks\[0\]\.accountId: names no account/);
  });

  it('recover from a state file and log of the earlier form, then from records logged since', () => {
    const { simulator, buildId, accountId } = seeded();
    const path = join(mkdtempSync(join(tmpdir(), 'sim-legacy-')), 'state.json');
    const first = legacyTask(accountId, buildId);
    const second = legacyTask(accountId, buildId);
    const checkpoint = { ...legacyForm(simulator.snapshot(), [first]), walSegment: 1 };
    writeFileSync(path, JSON.stringify(checkpoint));
    const now = simulator.internal.store.account(accountId)!.header();
    const header = { ...now, nextSeqs: now.nextSeqs.slice(0, 9) }; // a header of the earlier form: nine collections
    const later = { ...now, nextSeqs: [...now.nextSeqs.slice(0, 9), 4] };
    const third = { id: randomUUID(), tool: 'createBuild', buildId, answer: JSON.stringify({ buildId }), createdAt: T0, ttlMs: 3_600_000, cancelRequestedAt: null };
    const lines = [
      // The earlier log: the whole list, as it stood after the second task was made.
      recordLine([`["h",${JSON.stringify(accountId)},${JSON.stringify(header)}]`, `["v","extras",${JSON.stringify({ mcpTasks: [first, second] })}]`]),
      // A change of the account alone (no task changed): its header names no position for the tasks.
      recordLine([`["h",${JSON.stringify(accountId)},${JSON.stringify({ ...header, balance: header.balance - 1 })}]`]),
      // Then records of this form: one task put, the first one removed.
      recordLine([`["h",${JSON.stringify(accountId)},${JSON.stringify(later)}]`, `["p","c",${JSON.stringify(accountId)},"mcpTasks",${JSON.stringify(third.id)},[3,${JSON.stringify(third)}]]`, `["d","c",${JSON.stringify(accountId)},"mcpTasks",${JSON.stringify(first.taskId)}]`]),
    ];
    const recovered = (log: Buffer[]) => {
      writeFileSync(segmentPath(path, 1), Buffer.concat(log));
      const fresh = createSimulator({ frozenAt: T0, onFault: () => {} });
      recoverState(fresh, path, JSON.parse(JSON.stringify(checkpoint)));
      const saved = fresh.snapshot();
      return { tasks: tasksOf(saved, accountId), nextSeq: saved.accounts.find((a) => a.id === accountId)!.mcpTasks.nextSeq };
    };
    expect(recovered(lines.slice(0, 2))).toEqual({ tasks: [first.taskId, second.taskId], nextSeq: 3 });
    expect(recovered(lines)).toEqual({ tasks: [second.taskId, third.id], nextSeq: 4 });
  });
});
