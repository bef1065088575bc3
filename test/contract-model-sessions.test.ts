/**
 * The model phase is a good citizen of a shared server: every MCP session it opens it ends
 * (DELETE /mcp) before it finishes, so many CI jobs running the suite against one simulator
 * never fill its session table. A session whose key was revoked meanwhile cannot be ended by
 * its client (the DELETE is refused like any call of the credential): the server lets it go.
 */
import { expect, it } from 'vitest';
import { configFromEnv } from '../contracts/suite/config.js';
import { runContractSuite, SuiteRun } from '../contracts/suite/runner.js';
import { config } from './violations/suite-run.js';
import { simulatorUnderTest } from './violations/violated-simulator.js';

/** A fetch that notes the MCP sessions opened, ended, and the credentials the endpoint refused. */
function watchingSessions(target: ReturnType<typeof simulatorUnderTest>) {
  const opened = new Map<string, string | null>();
  const ended = new Set<string>();
  const refused = new Set<string | null>();
  const fetch: typeof target.fetch = async (input, init) => {
    const response = await target.fetch(input, init);
    if (new URL(input).pathname !== '/mcp') return response;
    const method = init?.method ?? 'GET';
    const sent = new Headers(init?.headers);
    const id = response.headers.get('mcp-session-id');
    if (method === 'POST' && id && response.ok) opened.set(id, sent.get('authorization'));
    if (response.status === 401) refused.add(sent.get('authorization'));
    // 404: the server holds no such session (ended already, or let go).
    if (method === 'DELETE' && sent.get('mcp-session-id') && (response.ok || response.status === 404)) ended.add(sent.get('mcp-session-id')!);
    return response;
  };
  return { fetch, opened, leftOpen: () => [...opened].filter(([id, key]) => !ended.has(id) && !refused.has(key)).length };
}

it('ends every MCP session it opened, and passes', async () => {
  const watch = watchingSessions(simulatorUnderTest());
  const run = await SuiteRun.open(configFromEnv({ CONTRACT_BASE_URL: 'http://simulator.in-process', CONTRACT_LEVEL: 'strict', CONTRACT_RUN_ID: 'sessions', CONTRACT_MODEL_SEED: '7240', CONTRACT_MODEL_RUNS: '8' }), watch.fetch);
  const check = run.checks.find((c) => c.id === 'model-based.sequences')!;
  const result = await run.run(check);
  await run.finish();
  expect(result.status, result.message).toBe('passed');
  expect(watch.opened.size, 'the phase used MCP').toBeGreaterThan(0);
  expect(watch.leftOpen(), 'sessions left open by credentials still valid').toBe(0);
}, 120_000);

it('leaves no session open after a whole strict run', async () => {
  const watch = watchingSessions(simulatorUnderTest());
  const summary = await runContractSuite(config(), watch.fetch);
  expect(summary.failed, 'the run passes').toBe(0);
  expect(watch.opened.size).toBeGreaterThan(20);
  expect(watch.leftOpen(), 'sessions left open by credentials still valid').toBe(0);
}, 180_000);
