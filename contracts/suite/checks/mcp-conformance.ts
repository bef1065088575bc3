import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAuthForwarder } from '../auth-forwarder.js';
import type { Check } from '../check.js';
import { parseMessage } from '../mcp-client.js';
import { ContractFailure } from '../../shared/outcomes.js';
import type { Session } from '../session.js';

export const CONFORMANCE = 'MCP conformance (the official @modelcontextprotocol/conformance server scenarios): every check of each scenario that applies to a server without the tool\'s own fixture tools passes: initialize, sessions, ping, tools/list and DNS-rebinding protection (2025-11-25); the stateless revision, tools/list, header validation and caching (2026-07-28); the tasks extension where the server offers it';

const TASKS = 'io.modelcontextprotocol/tasks';

export interface ConformanceScenario {
  revision: '2025-11-25' | '2026-07-28';
  name: string;
  /** An extension's scenario: run (with --force) only when the server offers the extension. */
  extension?: string;
}

/** The tool's server scenarios that judge a server by what it serves, not by the tool's fixture tools. */
export const CONFORMANCE_SCENARIOS: readonly ConformanceScenario[] = [
  { revision: '2025-11-25', name: 'server-initialize' },
  { revision: '2025-11-25', name: 'server-session-lifecycle' },
  { revision: '2025-11-25', name: 'ping' },
  { revision: '2025-11-25', name: 'tools-list' },
  { revision: '2025-11-25', name: 'dns-rebinding-protection' },
  { revision: '2026-07-28', name: 'server-stateless' },
  { revision: '2026-07-28', name: 'tools-list' },
  { revision: '2026-07-28', name: 'http-header-validation' },
  { revision: '2026-07-28', name: 'caching' },
  { revision: '2026-07-28', name: 'tasks-capability-negotiation', extension: TASKS },
  { revision: '2026-07-28', name: 'tasks-dispatch-and-envelope', extension: TASKS },
  { revision: '2026-07-28', name: 'tasks-request-headers', extension: TASKS },
];

/**
 * Checks of those scenarios that drive the tool's own fixture tools (test_missing_capability,
 * test_logging_tool, greet, slow_compute, failing_job…), which a real server does not have:
 * the tool's expected failures (its --expected-failures baseline), not judged.
 */
export const FIXTURE_CHECKS: readonly string[] = [
  'server-stateless:sep-2575-server-rejects-undeclared-capability',
  'server-stateless:sep-2575-missing-capability-http-400',
  'server-stateless:sep-2575-http-server-no-independent-requests-on-stream',
  'server-stateless:sep-2575-server-no-log-without-loglevel',
  'tasks-capability-negotiation:sep-2663-server-rejects-undeclared-client',
  'tasks-capability-negotiation:tasks-per-request-meta-opt-in',
  'tasks-dispatch-and-envelope:tasks-server-directed-creation-no-hint',
  'tasks-dispatch-and-envelope:sep-2663-legacy-task-param-ignored',
  'tasks-dispatch-and-envelope:tasks-immediate-result-shortcut',
  'tasks-dispatch-and-envelope:tasks-result-type-complete-on-non-task-responses',
  'tasks-dispatch-and-envelope:sep-2663-durable-create-strong-consistency',
  'tasks-request-headers:tasks-headers-tolerate-mcp-method-on-tools-call',
  'tasks-request-headers:sep-2663-routing-headers-accepted-on-tasks-get',
  'tasks-request-headers:sep-2663-server-rejects-mismatched-mcp-name-on-tasks-get',
];

/** The baseline file the tool reads: the fixture checks, as expected failures. */
export function baselineYaml(): string {
  return `server:\n${FIXTURE_CHECKS.map((id) => `  - ${id}\n`).join('')}`;
}

/** The tool's arguments for one scenario against an MCP endpoint. */
export function scenarioArguments(url: string, scenario: ConformanceScenario, baseline: string): string[] {
  return ['server', '--url', url, '--scenario', scenario.name, '--spec-version', scenario.revision, '--expected-failures', baseline, ...(scenario.extension ? ['--force'] : [])];
}

/** What the tool printed that says why a scenario failed: its FAILURE lines and its tally. */
export function failureLines(output: string): string[] {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const lines = plain.split('\n').map((l) => l.trim());
  const failures = lines.filter((l) => /\bFAILURE\b/.test(l)).map((l) => l.replace(/^\S*Z\s+/, '').replace(/\s+/g, ' '));
  const tally = lines.find((l) => /^Passed: \d+\/\d+/.test(l));
  return [...failures, ...(tally ? [tally] : [])];
}

/** The revisions and extensions the server serves, from initialize (2025-11-25) and server/discover (2026-07-28). */
async function served(s: Session, key: string): Promise<{ revisions: Set<string>; extensions: Set<string> }> {
  const post = async (body: unknown, headers: Record<string, string>) => {
    const res = await s.client.raw('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, ...headers }, body: JSON.stringify(body) }, key);
    const text = await res.text();
    return res.ok ? parseMessage(text, res.headers.get('content-type') ?? '') : undefined;
  };
  const revisions = new Set<string>();
  const extensions = new Set<string>();
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'content-contracts', version: '1' } } }, {});
  if (init?.result?.protocolVersion === '2025-11-25') revisions.add('2025-11-25');
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const discover = await post({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: meta } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
  if (Array.isArray(discover?.result?.supportedVersions) && discover.result.supportedVersions.includes('2026-07-28')) {
    revisions.add('2026-07-28');
    for (const name of Object.keys(discover.result.capabilities?.extensions ?? {})) extensions.add(name);
  }
  return { revisions, extensions };
}

function runTool(command: string, args: string[], timeoutMs: number): Promise<{ status: number; output: string }> {
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn(`${command} ${quoted}`, { shell: true, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ status: signal ? 124 : (code ?? 1), output });
    });
  });
}

/** A key of its own for the tool's requests, so that they count in no window the other checks use; revoked after. */
async function toolKey(s: Session): Promise<{ value: string; revoke(): Promise<void> }> {
  const reply = await s.client.op('createApiKey', {}, { body: { name: `${s.config.runId} mcp conformance`, scopes: ['svc:read', 'svc:write'] } });
  if (reply.status !== 201) return { value: s.keys.readWrite as string, revoke: async () => undefined };
  return { value: reply.json.value, revoke: async () => void (await s.client.op('revokeApiKey', { keyId: reply.json.id }).catch(() => undefined)) };
}

/** The check, for a run given the tool's command (`--mcp-conformance`). */
export function mcpConformanceChecks(command: string): Check[] {
  return [
    {
      id: 'mcp.conformance',
      title: CONFORMANCE,
      level: 'strict',
      requests: 8,
      async run(s) {
        const key = await toolKey(s);
        const dir = mkdtempSync(join(tmpdir(), 'contracts-conformance-'));
        const forwarder = await startAuthForwarder(s.config.baseUrl, key.value);
        try {
          const { revisions, extensions } = await served(s, key.value);
          const scenarios = CONFORMANCE_SCENARIOS.filter((c) => revisions.has(c.revision) && (!c.extension || extensions.has(c.extension)));
          if (scenarios.length === 0) s.skipBecause('/mcp serves neither 2025-11-25 nor 2026-07-28, the revisions of the scenarios');
          const baseline = join(dir, 'fixture-checks.yml');
          writeFileSync(baseline, baselineYaml());
          const failed: string[] = [];
          for (const scenario of scenarios) {
            const run = await runTool(command, scenarioArguments(`${forwarder.url}/mcp`, scenario, baseline), 120_000);
            if (run.status === 127) throw new Error(`the conformance tool did not start (${command}): ${run.output.trim().slice(0, 200)}`);
            if (run.status !== 0) failed.push(`${scenario.name} (${scenario.revision})${run.status === 124 ? ' timed out' : ''}: ${failureLines(run.output).join('; ').slice(0, 600)}`);
          }
          if (failed.length) throw new ContractFailure(`${CONFORMANCE}: ${failed.length} of ${scenarios.length} scenarios failed: ${failed.join(' | ')}`);
        } finally {
          await forwarder.close();
          rmSync(dir, { recursive: true, force: true });
          await key.revoke();
        }
      },
    },
  ];
}
