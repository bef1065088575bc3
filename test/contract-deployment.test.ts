import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromEnv, flagsToEnv, USAGE } from '../contracts/suite/config.js';
import { formatReport, readSummary } from '../contracts/suite/report.js';
import { runContractSuite } from '../contracts/suite/runner.js';
import { runContractsCommand } from './support/contracts-command.js';
import { INFRASTRUCTURE_HEADERS, startInfrastructureProxy } from './support/infrastructure-proxy.js';
import { repeatRun } from './support/once.js';
import { VIOLATIONS } from './violations/catalog.js';
import { serveOnLoopback, simulatorUnderTest } from './violations/violated-simulator.js';

/** A simulator on a loopback port behind a proxy that adds what nginx, a balancer and a CDN add. */
async function deployed(violationId?: string) {
  const violation = violationId ? VIOLATIONS.find((v) => v.id === violationId) : undefined;
  if (violationId && !violation) throw new Error(`no seeded violation ${violationId}`);
  const target = simulatorUnderTest(violation);
  const server = await serveOnLoopback(target);
  const proxy = await startInfrastructureProxy(server.baseUrl);
  // The public address is the proxy's, as `content-sim serve --public-url` would declare it.
  target.simulator.internal.oauth.setListeningUrl(proxy.url);
  return { url: proxy.url, close: async () => (await proxy.close(), await server.close()) };
}

const STACK_FRAME = /^\s+at .+[:(]/m;

/** Runs a test against its own deployment, closed afterwards: the tests run side by side, each moving its own clock. */
async function withDeployment<T>(violationId: string | undefined, test: (url: string) => Promise<T>): Promise<T> {
  const deployment = await deployed(violationId);
  try {
    return await test(deployment.url);
  } finally {
    await deployment.close();
  }
}

describe.skipIf(repeatRun)('content-contracts behind a reverse proxy that adds its own headers', { concurrent: true, timeout: 120_000 }, () => {
  it('passes at the strict level: every check run, none failed, no stack trace, JUnit classnames by area', async () => {
    await withDeployment(undefined, async (url) => {
      const probe = await fetch(`${url}/_sim`);
      await probe.body?.cancel();
      expect(probe.headers.get('server')).toBe(INFRASTRUCTURE_HEADERS.server); // the proxy is really there
      for (const name of ['via', 'x-request-id', 'strict-transport-security', 'vary', 'set-cookie']) expect(probe.headers.get(name), name).toBeTruthy();

      const reports = mkdtempSync(join(tmpdir(), 'contracts-proxy-'));
      const run = await runContractsCommand(['--base-url', url, '--level', 'strict', '--report-dir', reports]);
      expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^contracts: \d+ passed, 0 failed, 0 skipped, \d+ unverified$/);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toMatch(STACK_FRAME);
      expect(run.stdout).toContain('✓ Simulator control API: GET /_sim');
      const classnames = new Set([...readFileSync(join(reports, 'contracts-junit.xml'), 'utf8').matchAll(/classname="([^"]+)"/g)].map((m) => m[1]));
      for (const area of ['auth', 'builds', 'rate-limits', 'tokens', 'targets', 'generation', 'mcp', 'simulator-control']) expect(classnames, area).toContain(`contracts.${area}`);
    });
  });

  it('passes at the documented level and ends on a short summary; the flag and the JSON list what it folds', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'contracts-proxy-'));
    const run = await withDeployment(undefined, (url) => runContractsCommand(['--base-url', url, '--report-dir', reports]));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toMatch(STACK_FRAME);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^contracts: \d+ passed, 0 failed, 0 skipped, [1-9]\d* unverified$/);
    const tail = lines.slice(lines.findIndex((l) => l.startsWith('COVERAGE:')));
    expect(tail.length).toBeLessThanOrEqual(6);
    expect(tail.join('\n')).toMatch(/NOT LISTED: \d+ operations unverified .*; \d+ never called.*--list-unverified/);
    expect(run.stdout).not.toContain('? unverified');
    expect(run.stdout).not.toContain('never called\n');

    const summary = readSummary(reports)!;
    expect(summary.gaps.unverified.length).toBe(summary.unverified);
    expect(summary.gaps.neverCalled.map((o) => o.operationId)).toContain('listTargets');
    const full = formatReport(summary, { full: true });
    for (const gap of summary.gaps.unverified) expect(full).toContain(`? unverified ${gap.operationId} (`);
    expect(full).toContain('listTargets (GET /api/v1/targets): never called');
    expect(configFromEnv({ CONTRACT_BASE_URL: 'http://x', ...flagsToEnv(['--list-unverified']).env }).listUnverified).toBe(true);
    expect(USAGE).toMatch(/--list-unverified +list every unverified operation/);
  });

  it('still fails a documented header with a wrong value behind the proxy, and only that', async () => {
    const summary = await withDeployment('rate-limit-header-zero', (url) =>
      runContractSuite(configFromEnv({ CONTRACT_BASE_URL: url, CONTRACT_LEVEL: 'documented', CONTRACT_RUN_ID: 'behind-proxy' })),
    );
    const failures = summary.results.filter((r) => r.status === 'failed').map((r) => r.message ?? '');
    expect(failures.join('\n')).toContain('header x-ratelimit-limit="0"');
    expect(failures.join('\n')).not.toMatch(/header (server|via|x-request-id|strict-transport-security|set-cookie)\b/);
  });

  it('reports a control API that fails while the suite sets up as a failed step, without a stack trace', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'contracts-proxy-'));
    const run = await withDeployment('control-accounts-fail', (url) => runContractsCommand(['--base-url', url, '--level', 'strict', '--report-dir', reports]));
    expect(run.code).toBe(1);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(STACK_FRAME);
    expect(run.stdout).toContain('✗ Simulator control API: GET /_sim, POST /_sim/accounts and the clock calls answer as simulator-control.yaml states');
    expect(run.stdout).toContain('POST /_sim/accounts: expected 201, got 500');
    expect(run.stdout).toMatch(/contracts: 0 passed, 1 failed, \d+ skipped/);
  });
});
