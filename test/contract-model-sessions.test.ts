/**
 * The model phase is a good citizen of a shared server: every MCP session it opens it ends
 * (DELETE /mcp) before it finishes, so many CI jobs running the suite against one simulator
 * never fill its session table. A session whose key was revoked meanwhile cannot be ended by
 * its client (the DELETE is refused like any call of the key): the server lets it go.
 */
import { expect, it } from 'vitest';
import { configFromEnv } from '../contracts/suite/config.js';
import { SuiteRun } from '../contracts/suite/runner.js';
import { simulatorUnderTest } from './violations/violated-simulator.js';

it('ends every MCP session it opened, and passes', async () => {
  const target = simulatorUnderTest();
  const opened = new Map<string, string | null>();
  const ended = new Set<string>();
  const refused = new Set<string | null>();
  const watched: typeof target.fetch = async (input, init) => {
    const response = await target.fetch(input, init);
    if (new URL(input).pathname !== '/mcp') return response;
    const method = init?.method ?? 'GET';
    const id = response.headers.get('mcp-session-id');
    const key = new Headers(init?.headers).get('authorization');
    if (method === 'POST' && id && response.ok) opened.set(id, key);
    if (response.status === 401) refused.add(key);
    const sent = new Headers(init?.headers).get('mcp-session-id');
    if (method === 'DELETE' && sent && response.ok) ended.add(sent);
    return response;
  };
  const run = await SuiteRun.open(configFromEnv({ CONTRACT_BASE_URL: 'http://simulator.in-process', CONTRACT_LEVEL: 'strict', CONTRACT_RUN_ID: 'sessions', CONTRACT_MODEL_SEED: '7240', CONTRACT_MODEL_RUNS: '8' }), watched);
  const check = run.checks.find((c) => c.id === 'model-based.sequences')!;
  const result = await run.run(check);
  await run.finish();
  expect(result.status, result.message).toBe('passed');
  expect(opened.size, 'the phase used MCP').toBeGreaterThan(0);
  const open = [...opened].filter(([id, key]) => !ended.has(id) && !refused.has(key));
  expect(open.length, 'sessions left open by keys still valid').toBe(0);
}, 120_000);
