import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { account, call } from '../support/account-clock-rig.js';
import { T0 } from '../support/harness.js';
import { mcpRig, type McpRig } from '../mcp/support.js';
import { taskSession } from '../mcp/task-clients.js';
import { counts } from './support.js';

/**
 * The client report's MCP rules, driven by the official SDK client and the official task
 * requester library: tasks/get polled faster than its pollInterval, and tool calls retried
 * after a rate-limit error before its reset, reported; the same work done at the pace the
 * server asks for (by the task library, which waits each pollInterval), reported clean.
 */
type ToolResult = { structuredContent?: any; content: any[]; isError?: boolean };

let rig: McpRig;
/**
 * A server whose builds run `speed` times the service's pace. The careless client's run at the
 * service's own, so that the pollInterval it is given is long (30 s) and its reads back to back
 * are too fast on the busiest machine; the careful client's run fast, as its library waits
 * each pollInterval for real.
 */
async function serve(speed: number): Promise<void> {
  rig = await mcpRig({ speed, rateLimits: { perKey: { 'build-create': 2 } } });
}
afterEach(async () => rig.close());

async function owner(name: string, clock: Record<string, unknown>) {
  const made = await account(rig.baseUrl, { name, clock });
  const key = made.keys.readWrite;
  const target = await call(rig.baseUrl, 'POST', '/api/v1/targets', { key, body: { name, slug: `t-${name.toLowerCase()}`, description: 'Coffee gear', brandKit: { voice: 'expert', tone: 'warm' } } });
  expect(target.status).toBe(201);
  return { accountId: made.accountId, key, targetId: target.body.id as string };
}

const buildArgs = (targetId: string, objective: string, idempotencyKey: string) => ({ targetId, buildType: 'single', kind: 'blog', objective, researchPolicy: 'required', idempotencyKey });
const report = async (accountId: string) => (await call(rig.baseUrl, 'GET', `/_sim/accounts/${accountId}/client-report`)).body;
const Created = z.looseObject({ task: z.looseObject({ taskId: z.string() }) });
const Task = z.looseObject({ status: z.string(), pollInterval: z.number().optional() });
const errorOf = (result: ToolResult) => (result.isError ? JSON.parse(result.content[0].text) : undefined);

describe('the client report over MCP', () => {
  it('reports tasks polled faster than their pollInterval and tool calls retried before the reset', async () => {
    await serve(1);
    const bad = await owner('Hasty', { frozenAt: new Date(T0).toISOString() });
    const client = await rig.client(bad.key);
    // A task asked for through the SDK client itself, then read back to back: the account's clock is frozen and no real time is waited.
    const created = await client.request({ method: 'tools/call', params: { name: 'createBuild', arguments: buildArgs(bad.targetId, 'Espresso at home', 'task-1'), task: { ttl: 600_000 } } }, Created);
    for (let i = 0; i < 4; i++) {
      const task = await client.request({ method: 'tasks/get', params: { taskId: created.task.taskId } }, Task);
      expect(task).toMatchObject({ status: 'working', pollInterval: expect.any(Number) });
      // Reads come back to back: far sooner than half the pollInterval, whatever the machine's load.
      expect(task.pollInterval).toBeGreaterThanOrEqual(20_000);
    }
    // Two creations a minute on this key: the third is refused, and retried at once twice (same arguments, same key).
    const answers: ToolResult[] = [];
    for (const key of ['k-2', 'k-3', 'k-3', 'k-3']) answers.push((await client.callTool({ name: 'createBuild', arguments: buildArgs(bad.targetId, `Build ${key}`, key) })) as ToolResult);
    expect(answers.map((a) => errorOf(a)?.code ?? 'ok')).toEqual(['ok', 'RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED']);

    const found = await report(bad.accountId);
    expect(counts(found)).toEqual({ 'mcp-task-poll-too-fast': 2, 'mcp-tool-retry-before-reset': 2 });
    const retry = found.findings.find((f: { rule: string }) => f.rule === 'mcp-tool-retry-before-reset');
    expect(retry.examples[0]).toMatchObject({ method: 'POST', path: '/api/v1/builds', via: 'mcp' });
  });

  it('finds nothing when tasks are polled at their pollInterval and a rate limit is waited out', async () => {
    await serve(600);
    // The account's clock runs (real time): the requester library waits each pollInterval the server gives.
    const good = await owner('Patient', { offsetMs: 0 });
    const client = await rig.client(good.key);
    const session = taskSession(client, '2025-11-25', `${rig.baseUrl}/mcp`, good.key, 'patient');
    const execution = await session.callTool('createBuild', buildArgs(good.targetId, 'Espresso at home', 'task-1'), { task: { preference: 'require' } });
    if (execution.kind !== 'task') throw new Error('no task was made');
    const { outcome } = await execution.settle();
    expect((resultFromTaskOutcome(outcome) as ToolResult).isError).toBeFalsy();

    const create = async (key: string) => (await client.callTool({ name: 'createBuild', arguments: buildArgs(good.targetId, `Build ${key}`, key) })) as ToolResult;
    // From here the clock stands still, so the creations share one minute's window whenever the
    // task above ended: two a minute on this key, the next refused.
    expect((await call(rig.baseUrl, 'POST', `/_sim/accounts/${good.accountId}/clock/freeze`, { body: {} })).status).toBe(200);
    let refused: { key: string; error: NonNullable<ReturnType<typeof errorOf>> } | undefined;
    for (const key of ['k-2', 'k-3', 'k-4']) {
      const error = errorOf(await create(key));
      if (error) {
        refused = { key, error };
        break;
      }
    }
    expect(refused?.error.code).toBe('RATE_LIMITED');
    // Waited out on the account's clock, exactly as long as the error asked, then the same call again.
    const moved = await call(rig.baseUrl, 'POST', `/_sim/accounts/${good.accountId}/clock/advance`, { body: { ms: refused!.error.details.retryAfterSeconds * 1000 } });
    expect(moved.status).toBe(200);
    expect((await create(refused!.key)).isError).toBeFalsy();

    expect((await report(good.accountId)).findings).toEqual([]);
    await session.close();
  });
});
