import { JsonRpcResponseError, resultFromTaskOutcome, TaskCancellationUnsupportedError, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, call } from '../support/account-clock-rig.js';
import { T0 } from '../support/harness.js';
import { mcpRig, type McpRig } from './support.js';
import { taskSession, type Era } from './task-clients.js';

/**
 * createBuild as an MCP task, driven by the official requester library on both revisions: the
 * task follows its build stage by stage as the account's own clock moves, ends with the very
 * answer the tool gives without a task, and belongs to its account alone.
 */
type ToolResult = { structuredContent?: any; content: any[]; isError?: boolean };

let rig: McpRig;
beforeEach(async () => (rig = await mcpRig({ speed: 600 })));
afterEach(async () => rig.close());

const STAGES = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed'];

/** An account on a clock of its own (frozen at T0), with a target to build for. */
async function owner(name: string) {
  const made = await account(rig.baseUrl, { name, clock: { frozenAt: new Date(T0).toISOString() } });
  const key = made.keys.readWrite;
  const target = await call(rig.baseUrl, 'POST', '/api/v1/targets', { key, body: { name, slug: `t-${name.toLowerCase()}`, description: 'Coffee gear', brandKit: { voice: 'expert', tone: 'warm' } } });
  expect(target.status).toBe(201);
  return { accountId: made.accountId, key, targetId: target.body.id as string };
}

const buildArgs = (targetId: string, objective: string) => ({ targetId, buildType: 'single', kind: 'blog', objective, researchPolicy: 'required' });

/** When each stage of a build begins (its schedule, from a snapshot of the simulation). */
async function boundaries(buildId: string): Promise<number[]> {
  const snapshot = await call(rig.baseUrl, 'GET', '/_sim/snapshot');
  const build = snapshot.body.accounts.flatMap((a: any) => a.builds.entries.map(([, b]: [number, any]) => b)).find((b: any) => b.id === buildId);
  return [...build.schedule.stageStarts, build.schedule.completeAt];
}

async function sessionFor(era: Era, key: string, id: string): Promise<TaskEnabledSession> {
  return taskSession(await rig.client(key, era), era, `${rig.baseUrl}/mcp`, key, `${era}-${id}`);
}

describe.each(['2025-11-25', '2026-07-28'] as const)('createBuild as an MCP task (%s)', (era) => {
  it('follows the build through every stage, on the account’s clock, to the tool’s own answer and the deliverable', async () => {
    const alice = await owner('Alice');
    const session = await sessionFor(era, alice.key, 'alice');
    const execution = await session.callTool('createBuild', buildArgs(alice.targetId, 'Espresso at home'), { task: { preference: 'require' } });
    expect(execution.kind).toBe('task');
    if (execution.kind !== 'task') return;

    const seen: string[] = [];
    let due: number[] | undefined;
    let now = T0;
    const { outcome } = await execution.settle({
      onEvent: async (event) => {
        if (event.type !== 'task') return;
        const stage = /is (\w+) \(stage/.exec(event.task.statusMessage ?? '')?.[1] ?? /completed/.exec(event.task.statusMessage ?? '')?.[0];
        if (!stage || seen.at(-1) === stage) return;
        seen.push(stage);
        expect(event.task.statusMessage).toContain(stage);
        if (event.task.status !== 'working') return;
        // Poll pace follows the build's: never faster than a quarter second, never slower than half a minute.
        expect(event.task.suggestedPollIntervalMs).toBeGreaterThanOrEqual(250);
        expect(event.task.suggestedPollIntervalMs).toBeLessThanOrEqual(30_000);
        // The account's clock alone moves, to the start of the next stage.
        due ??= await boundaries(JSON.parse(JSON.stringify(event.task.raw)).statusMessage.match(/Build ([0-9a-f-]{36})/)[1]);
        const next = due[seen.length - 1] as number;
        const moved = await call(rig.baseUrl, 'POST', `/_sim/accounts/${alice.accountId}/clock/advance`, { body: { ms: next - now } });
        expect(moved.status).toBe(200);
        now = next;
      },
    });
    expect(seen).toEqual(STAGES);
    expect(rig.simulator.clock.now()).toBe(T0); // the simulator's own clock never moved

    const result = resultFromTaskOutcome(outcome) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ buildId: expect.any(String), correlationId: expect.stringMatching(/^corr_/) });
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);

    // The deliverable of the build the task followed.
    const client = await rig.client(alice.key, era);
    const build = (await client.callTool({ name: 'getBuild', arguments: { buildId: result.structuredContent.buildId } })) as ToolResult;
    expect(build.structuredContent.build.status).toBe('completed');
    const deliverable = (await client.callTool({ name: 'getDeliverable', arguments: { deliverableId: build.structuredContent.deliverables[0].id } })) as ToolResult;
    expect(deliverable.structuredContent.buildId).toBe(result.structuredContent.buildId);
    await session.close();
  });

  it('belongs to its account: another account’s tasks/get is refused as not found', async () => {
    const alice = await owner('Alice');
    const mallory = await owner('Mallory');
    const aliceSession = await sessionFor(era, alice.key, 'alice');
    const execution = await aliceSession.callTool('createBuild', buildArgs(alice.targetId, 'Pour-over'), { task: { preference: 'require' } });
    if (execution.kind !== 'task') throw new Error('no task was made');
    const { taskId } = execution.handle;
    expect((await aliceSession.task(taskId).snapshot()).status).toBe('working');

    const mallorySession = await sessionFor(era, mallory.key, 'mallory');
    const refused = await mallorySession.task(taskId).snapshot().then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(JsonRpcResponseError);
    expect((refused as JsonRpcResponseError).code).toBe(-32602);
    expect((refused as JsonRpcResponseError).message).toMatch(/not found/i);
    if (era === '2025-11-25') {
      expect((await mallorySession.listTasks()).tasks).toEqual([]);
      expect((await aliceSession.listTasks()).tasks.map((t) => t.taskId)).toEqual([taskId]);
    }
    await execution.detach();
    await Promise.all([aliceSession.close(), mallorySession.close()]);
  });

  it('declares which tools may run as tasks', async () => {
    const alice = await owner('Alice');
    const client = await rig.client(alice.key, era);
    const capabilities = client.getServerCapabilities() as Record<string, any>;
    const { tools } = await client.listTools();
    if (era === '2025-11-25') {
      expect(capabilities.tasks).toEqual({ list: {}, requests: { tools: { call: {} } } });
      expect(tools.filter((tool: any) => tool.execution?.taskSupport).map((tool: any) => [tool.name, tool.execution.taskSupport])).toEqual([['createBuild', 'optional']]);
    } else {
      expect(capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
      expect(capabilities.tasks).toBeUndefined();
    }
  });

  it('answers a client that does not ask for a task exactly as today', async () => {
    const alice = await owner('Alice');
    const client = await rig.client(alice.key, era);
    const result = (await client.callTool({ name: 'createBuild', arguments: buildArgs(alice.targetId, 'Cold brew') })) as ToolResult & Record<string, unknown>;
    expect(result.structuredContent).toEqual({ buildId: expect.any(String), correlationId: expect.stringMatching(/^corr_/) });
    expect(Object.keys(result).filter((k) => !['content', 'structuredContent', 'resultType', '_meta'].includes(k))).toEqual([]);
    expect(result).not.toHaveProperty('task');
    expect(rig.simulator.internal.store.account(alice.accountId)!.mcpTasks.size).toBe(0);
  });

  it('answers a cancel as the revision allows for a build that cannot be stopped', async () => {
    const alice = await owner('Alice');
    const session = await sessionFor(era, alice.key, 'alice');
    const execution = await session.callTool('createBuild', buildArgs(alice.targetId, 'Moka pot'), { task: { preference: 'require' } });
    if (execution.kind !== 'task') throw new Error('no task was made');
    if (era === '2025-11-25') {
      // No tasks.cancel capability: the library refuses before sending, and the task goes on.
      expect(session.capabilities.cancellation).toBe(false);
      await expect(execution.cancel()).rejects.toBeInstanceOf(TaskCancellationUnsupportedError);
    } else {
      await execution.cancel();
    }
    const after = await session.task(execution.handle.taskId).snapshot();
    expect(after.status).toBe('working');
    if (era === '2026-07-28') expect(after.statusMessage).toMatch(/cannot be stopped/);
    await session.close();
  });

  it('survives a snapshot and its restore', async () => {
    const alice = await owner('Alice');
    const session = await sessionFor(era, alice.key, 'alice');
    const execution = await session.callTool('createBuild', buildArgs(alice.targetId, 'Aeropress'), { task: { preference: 'require' } });
    if (execution.kind !== 'task') throw new Error('no task was made');
    const saved = await call(rig.baseUrl, 'GET', '/_sim/snapshot');
    // A record of its account, as its builds are.
    const own = saved.body.accounts.find((a: { id: string }) => a.id === alice.accountId);
    expect(own.mcpTasks.entries).toEqual([[1, expect.objectContaining({ id: execution.handle.taskId })]]);
    expect(saved.body.mcpTasks).toBeUndefined();
    rig.simulator.internal.store.account(alice.accountId)!.mcpTasks.clear();
    const restored = await call(rig.baseUrl, 'POST', '/_sim/restore', { body: saved.body });
    expect(restored.status).toBe(200);
    expect((await session.task(execution.handle.taskId).snapshot()).taskId).toBe(execution.handle.taskId);
    await execution.detach();
    await session.close();
  });
});

describe('waitForBuild on an account’s own clock', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('reports pending, researching, drafting, critiquing, merging and completed (%s)', async (era) => {
    const alice = await owner('Alice');
    const client = await rig.client(alice.key, era);
    const created = (await client.callTool({ name: 'createBuild', arguments: buildArgs(alice.targetId, 'Siphon coffee') })) as ToolResult;
    const stages: string[] = [];
    // Only the account's clock moves, past the whole pipeline at once, while the wait is open.
    setTimeout(() => void call(rig.baseUrl, 'POST', `/_sim/accounts/${alice.accountId}/clock/advance`, { body: { ms: 3_600_000 } }), 100);
    const done = (await client.callTool(
      { name: 'waitForBuild', arguments: { buildId: created.structuredContent.buildId, timeoutSeconds: 60 } },
      { onprogress: (p) => stages.push(String(p.message)) },
    )) as ToolResult;
    expect(done.structuredContent.build.status).toBe('completed');
    expect(stages).toEqual(STAGES);
    expect(rig.simulator.clock.now()).toBe(T0);
  });
});
