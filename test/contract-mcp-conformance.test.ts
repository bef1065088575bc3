import { describe, expect, it } from 'vitest';
import { CONFORMANCE, failureLines, mcpConformanceChecks } from '../contracts/suite/checks/mcp-conformance.js';
import { configFromEnv } from '../contracts/suite/config.js';
import { SuiteRun } from '../contracts/suite/runner.js';
import { startCli } from './support/cli-server.js';
import { repeatRun } from './support/once.js';
import { missing } from './support/requirements.js';
import { ensureRuntimes } from './support/runtimes.js';
import type { Violation } from './violations/catalog.js';
import { serveOnLoopback, simulatorUnderTest } from './violations/violated-simulator.js';

/**
 * The contract suite's `mcp.conformance` check: the official MCP conformance tool (on Node 22,
 * as it requires) run by the suite against a server's /mcp through a loopback forwarder that
 * adds a key of the check's own.
 */
const RUNTIMES = ensureRuntimes();
const TOOL = `'${RUNTIMES}/node22/bin/node' '${RUNTIMES}/@modelcontextprotocol/conformance/dist/index.js'`;

/** A server that answers requests for any Host: the DNS-rebinding protection a framework default leaves out. */
const ANY_HOST: Violation = {
  id: 'mcp-any-host',
  description: 'the MCP endpoint serves any Host',
  rule: 'dns-rebinding-protection',
  wrapMcp: (f) => (request) => {
    const headers = new Headers(request.headers);
    headers.set('host', '127.0.0.1');
    headers.delete('origin');
    return f(new Request(request, { headers }));
  },
};

/** The check against a server: the CLI's, or a broken simulator on a loopback port. */
async function conformanceOf(env: Record<string, string>, violation?: Violation, server?: { baseUrl: string; close(): Promise<void> }) {
  server ??= await serveOnLoopback(simulatorUnderTest(violation));
  try {
    const run = await SuiteRun.open(configFromEnv({ CONTRACT_BASE_URL: server.baseUrl, CONTRACT_LEVEL: 'strict', CONTRACT_RUN_ID: 'conformance', CONTRACT_MODEL: '0', ...env }));
    const check = run.checks.find((c) => c.id === 'mcp.conformance');
    if (!check) return { result: undefined, keys: [] };
    expect(check.title).toBe(CONFORMANCE);
    const result = await run.run(check);
    // Through the suite's own client: the answer is judged against openapi.yaml like every other.
    const keys = await run.session.client.op('listApiKeys', {}, { query: { limit: '100' } });
    return { result, keys: keys.json.data as { name: string; status: string }[] };
  } finally {
    await server.close();
  }
}

describe('the suite\'s MCP conformance check', () => {
  it('is part of a strict run only when the tool is given', async () => {
    expect((await conformanceOf({})).result).toBeUndefined();
    expect((await conformanceOf({ CONTRACT_MCP_CONFORMANCE: 'x', CONTRACT_LEVEL: 'documented' })).result).toBeUndefined();
  });

  it('reads the FAILURE lines and the tally of the tool\'s output, colours or not', () => {
    const output = '\x1b[90m2026-12-02T04:52:59.456Z\x1b[0m [server-initialize   ] \x1b[31mFAILURE\x1b[0m Server responds to initialize\n[ping] SUCCESS ok\n\nTest Results:\nPassed: 2/3, 1 failed, 0 warnings\n';
    expect(failureLines(output)).toEqual(['[server-initialize ] FAILURE Server responds to initialize', 'Passed: 2/3, 1 failed, 0 warnings']);
    expect(mcpConformanceChecks('tool').map((c) => [c.id, c.level])).toEqual([['mcp.conformance', 'strict']]);
  });

  describe.skipIf(missing('node22'))('with the official tool', () => {
    // The CLI server as `npm start` runs it: node:http, where plain 2026-07-28 calls take the fast path.
    it('passes the CLI server, and leaves no key of its own active', async () => {
      const cli = await startCli();
      const { result, keys } = await conformanceOf({ CONTRACT_MCP_CONFORMANCE: TOOL }, undefined, { baseUrl: cli.baseUrl, close: async () => cli.stop() });
      expect(result?.status, result?.message).toBe('passed');
      const own = keys.filter((k) => k.name.includes('mcp conformance'));
      expect(own.map((k) => k.status)).toEqual(['revoked']);
    }, 600_000);

    // The suite's judgement and a wrong command: the same on every Node (test/support/once.ts).
    it.skipIf(repeatRun)('fails a server that serves any Host, naming the scenario and what the tool saw', async () => {
      const { result } = await conformanceOf({ CONTRACT_MCP_CONFORMANCE: TOOL }, ANY_HOST);
      expect(result?.status).toBe('failed');
      expect(result?.message).toContain(CONFORMANCE);
      expect(result?.message).toMatch(/dns-rebinding-protection \(2025-11-25\): \[localhost-host-rebinding-rejected\] FAILURE/);
      // All 12 ran (both revisions, the tasks extension); only the one that judges Host failed.
      expect(result?.message).toContain('1 of 12 scenarios failed');
      expect(result?.message).not.toMatch(/server-initialize/);
    }, 600_000);

    it.skipIf(repeatRun)('says the tool did not start when its command is wrong', async () => {
      const { result } = await conformanceOf({ CONTRACT_MCP_CONFORMANCE: '/nonexistent/conformance-tool' });
      expect(result?.status).toBe('failed');
      expect(result?.message).toContain('the conformance tool did not start (/nonexistent/conformance-tool)');
    }, 120_000);
  });
});
