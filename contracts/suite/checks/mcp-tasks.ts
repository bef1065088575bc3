import type { Check } from '../check.js';
import { McpSession } from '../mcp-client.js';
import { ContractFailure, expectEqual, expectThat } from '../../shared/outcomes.js';

export const TASKS = 'MCP 2025-11-25 Tasks: a server whose tools run as tasks declares the tasks capability and answers a task-augmented call with a task id and status; a task is bound to the authorization context that made it: another account\'s tasks/get, tasks/result and tasks/cancel are errors, and its tasks/list does not show it';

/**
 * A task made by an account of its own (made on the simulator, with the tokens of one build,
 * so that the run's accounts spend nothing), then asked for by the run's main account, which
 * must learn nothing of it.
 */
export function mcpTaskChecks(): Check[] {
  return [
    {
      id: 'mcp.tasks-owner',
      title: TASKS,
      level: 'strict',
      simulator: 'makes an account of its own, whose build the task follows',
      requests: 16,
      run: async (s) => {
        const keys = await s.control!.createAccount(`Contract checks ${s.config.runId} (tasks)`, 20);
        const authorization = `Bearer ${keys.readWrite}`;
        const owner = await McpSession.openWith(s, authorization);
        const tools = ((await owner.request('tools/list')).message?.result?.tools ?? []) as Array<{ name: string; execution?: { taskSupport?: string } }>;
        const taskTool = tools.find((t) => t.execution?.taskSupport === 'optional' || t.execution?.taskSupport === 'required');
        if (!taskTool) return s.skipBecause('no tool runs as a task (execution.taskSupport)');
        expectThat(owner.initialized?.message?.result?.capabilities?.tasks, `${TASKS}: ${taskTool.name} runs as a task, and initialize declares no tasks capability`);
        const target = await s.client.op('createTarget', {}, { body: { ...s.newTargetName('tasks'), description: 'The target of a task.' }, authorization });
        expectEqual(target.status, 201, `${TASKS}: a target of the task's account`);
        const targetId = String(target.json.id);
        const body = { targetId, buildType: 'single', kind: 'blog', objective: 'A task of another account', researchPolicy: 'none' };
        const made = await owner.request('tools/call', { name: taskTool.name, arguments: await owner.argumentsFor(taskTool.name, {}, body), task: { ttl: 60_000 } });
        const taskId = made.message?.result?.task?.taskId;
        expectThat(typeof taskId === 'string' && typeof made.message?.result?.task?.status === 'string', `${TASKS}: a task-augmented ${taskTool.name} answered ${JSON.stringify(made.message).slice(0, 200)}`);
        const mine = await owner.request('tasks/get', { taskId });
        expectEqual(mine.message?.result?.taskId, taskId, `${TASKS}: the owner's tasks/get (${JSON.stringify(mine.message).slice(0, 300)})`);
        const other = await McpSession.open(s, 'readWrite');
        for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
          const asked = await other.request(method, { taskId });
          const leaked = asked.message?.result !== undefined || !asked.message?.error;
          if (leaked) throw new ContractFailure(`${TASKS}: another account's ${method} of the task answered ${asked.status} ${JSON.stringify(asked.message).slice(0, 200)}`);
        }
        const listed = await other.request('tasks/list', {});
        const shown = ((listed.message?.result?.tasks ?? []) as Array<{ taskId: string }>).some((t) => t.taskId === taskId);
        expectThat(!shown, `${TASKS}: another account's tasks/list shows the task`);
        const still = await owner.request('tasks/get', { taskId });
        expectEqual(still.message?.result?.taskId, taskId, `${TASKS}: the owner's tasks/get after the other account asked to cancel it`);
      },
    },
  ];
}
