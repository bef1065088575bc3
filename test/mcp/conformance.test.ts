import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthProxy } from '../support/auth-proxy.js';
import { startCli, type CliServer } from '../support/cli-server.js';
import { missing } from '../support/requirements.js';
import { ensureRuntimes } from '../support/runtimes.js';

/**
 * The official MCP conformance tool (run on Node 22, as it requires) against the CLI server,
 * through a loopback proxy that adds the API key the tool cannot send. Only the checks
 * named in conformance-baseline.yml (they need the tool's own fixture tools) may fail.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNTIMES = ensureRuntimes();
const NODE22 = `${RUNTIMES}/node22/bin/node`;
const CONFORMANCE = `${RUNTIMES}/@modelcontextprotocol/conformance/dist/index.js`;
const BASELINE = `${root}test/mcp/conformance-baseline.yml`;

const SCENARIOS: [string, string][] = [
  ['2025-11-25', 'server-initialize'],
  ['2025-11-25', 'server-session-lifecycle'],
  ['2025-11-25', 'ping'],
  ['2025-11-25', 'tools-list'],
  ['2025-11-25', 'dns-rebinding-protection'],
  ['2026-07-28', 'server-stateless'],
  ['2026-07-28', 'tools-list'],
  ['2026-07-28', 'http-header-validation'],
  ['2026-07-28', 'caching'],
  // The tasks extension (io.modelcontextprotocol/tasks), an extension scenario the runner is told to run (--force).
  ['2026-07-28', 'tasks-capability-negotiation'],
  ['2026-07-28', 'tasks-dispatch-and-envelope'],
  ['2026-07-28', 'tasks-request-headers'],
];

let server: CliServer;
let proxy: Awaited<ReturnType<typeof startAuthProxy>>;

beforeAll(async () => {
  server = await startCli();
  proxy = await startAuthProxy(server.baseUrl, server.key);
});

afterAll(async () => {
  await proxy?.close();
  server?.stop();
});

describe.skipIf(missing('node22'))('the MCP conformance tool', () => {
  it.each(SCENARIOS)('passes %s %s', async (version, scenario) => {
    // Asynchronously: the proxy answers from this very process.
    const run = await new Promise<{ status: number; output: string }>((resolve) => {
      execFile(
        NODE22,
        [CONFORMANCE, 'server', '--url', `${proxy.url}/mcp`, '--scenario', scenario, '--spec-version', version, '--expected-failures', BASELINE, ...(scenario.startsWith('tasks-') ? ['--force'] : [])],
        { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
        (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
      );
    });
    const { output } = run;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/Passed: \d+\/\d+/);
  });
});
