import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../contracts/suite/config.js';
import { RULES } from '../contracts/shared/response-rules.js';
import { BEHAVIOUR_RULES } from '../contracts/proxy/behaviour.js';
import { runProxy } from '../contracts/proxy/command.js';
import { CREDENTIAL_RULE, REQUEST_RULE } from '../contracts/proxy/inspector.js';
import { formatProxyReport, junitOf, type ProxyReport } from '../contracts/proxy/report.js';
import { runContractSuite } from '../contracts/suite/runner.js';
import { repeatRun } from './support/once.js';
import { VIOLATIONS } from './violations/catalog.js';
import { runAreas } from './violations/suite-run.js';
import { legalVariant } from './violations/legal-variant.js';
import { serveOnLoopback, simulatorUnderTest } from './violations/violated-simulator.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The suite as a client: every operation, its errors, replays, polls, exhausted limits; run
 * through the proxy. In front of a seeded fault, the checks of the fault's areas only (see
 * test/violations/seeded-catalogue.ts): their traffic is where the fault shows, and the proxy
 * still has to find it, and name its rule, among all of that traffic.
 */
async function throughProxy(violationId?: string, level: 'documented' | 'strict' = 'strict'): Promise<{ report: ProxyReport; suiteFailed: number }> {
  const violation = violationId ? VIOLATIONS.find((v) => v.id === violationId) : undefined;
  if (violationId && !violation) throw new Error(`no violation ${violationId}`);
  const server = await serveOnLoopback(simulatorUnderTest(violation));
  const proxy = await runProxy({ target: server.baseUrl, level });
  try {
    // The model-based phase is left out: it moves account clocks (the proxy judges the 24-hour window by the Date header)
    // and sends calls of one key at once, which the proxy's traffic-only rules cannot follow.
    const config = configFromEnv({ CONTRACT_BASE_URL: proxy.url, CONTRACT_LEVEL: level, CONTRACT_RUN_ID: 'proxy', CONTRACT_MODEL: '0' });
    const summary = violation?.areas ? await runAreas(violation.areas, config, fetch) : await runContractSuite(config);
    return { report: await proxy.stop(), suiteFailed: summary.failed };
  } finally {
    await server.close();
  }
}

const rulesOf = (report: ProxyReport) => [...new Set(report.violations.map((v) => v.rule))];

describe('the validation proxy', () => {
  // A whole strict run over two loopback hops: minutes on a loaded machine, seconds alone.
  it('reports zero violations for the client traffic of a whole strict run in front of the simulator', { timeout: 240_000 }, async () => {
    const { report, suiteFailed } = await throughProxy();
    expect(suiteFailed).toBe(0);
    expect(report.violations.map((v) => `${v.rule}: ${v.method} ${v.url} ${v.status} ${v.detail}`)).toEqual([]);
    expect(report.exchanges).toBeGreaterThan(900);
    expect(report.refusedInvalidRequests).toBeGreaterThan(20); // the suite's own bad requests, refused as they should be
    expect(report.coverage.totals.operations).toEqual({ reached: 48, total: 48 });
    expect(formatProxyReport(report)).toMatch(/contracts proxy: \d+ exchanges, 0 violation\(s\) of 0 rule\(s\)$/);
    expect(junitOf(report)).toMatch(/failures="0"/);
  });

  // What the proxy judges is its rules' logic, the same on every Node: CI's first pass runs it; the runtime's part (node:http both ways) is above and below.
  it.skipIf(repeatRun)('holds a server that differs only in what openapi.yaml infers to nothing, at the documented level', async () => {
    const target = simulatorUnderTest();
    const server = await serveOnLoopback({ ...target, handle: legalVariant(target.handle) });
    const proxy = await runProxy({ target: server.baseUrl, level: 'documented' });
    try {
      const summary = await runContractSuite(configFromEnv({ CONTRACT_BASE_URL: proxy.url, CONTRACT_LEVEL: 'documented', CONTRACT_RUN_ID: 'proxy', CONTRACT_MODEL: '0' }));
      expect(summary.failed).toBe(0);
      const report = await proxy.stop();
      expect(report.violations.map((v) => `${v.rule}: ${v.method} ${v.url} ${v.status} ${v.detail}`)).toEqual([]);
      expect(report.exchanges).toBeGreaterThan(100);
    } finally {
      await server.close();
    }
  });

  // Each seeded fault behind the proxy, with the rule the proxy must name (it sees only traffic, so its rules are its own).
  const CASES: Array<[string, string]> = [
    ['missing-correlation-id', RULES.contract],
    ['error-without-details', RULES.errorShape],
    ['server-error-on-bad-input', RULES.noServerError],
    ['missing-rate-limit-header', RULES.rateHeaders],
    ['remaining-not-falling', RULES.remainingFalls],
    ['remaining-above-limit', RULES.remainingBounds],
    ['reset-in-the-past', RULES.resetFuture],
    ['reset-in-milliseconds', RULES.resetWindow],
    ['wrong-build-create-limit', RULES.limitClass],
    ['retry-after-in-milliseconds', BEHAVIOUR_RULES.retryAfter],
    ['missing-idempotent-flag', BEHAVIOUR_RULES.replay],
    ['status-out-of-order', BEHAVIOUR_RULES.order],
    ['terminal-status-changes', BEHAVIOUR_RULES.terminal],
    ['deliverables-too-early', BEHAVIOUR_RULES.deliverables],
    ['optional-target-slug', REQUEST_RULE],
    ['no-scheme-accepted', CREDENTIAL_RULE],
    ['test-prefix-accepted', CREDENTIAL_RULE],
    ['query-key-accepted', CREDENTIAL_RULE],
    ['undocumented-field', RULES.contract],
  ];
  it.skipIf(repeatRun).each(CASES)('names the rule a seeded fault breaks: %s', async (id, rule) => {
    const { report } = await throughProxy(id);
    expect(rulesOf(report)).toContain(rule);
    expect(JSON.stringify(report.violations)).not.toMatch(/[0-9a-f]{40}/); // no key in a report, not even one sent in a URL
  });

  it('passes traffic through unchanged and streams a large body without holding it', async () => {
    const size = 24 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 97);
    const echo = createServer((req, res) => {
      let received = 0;
      req.on('data', (c: Buffer) => (received += c.length));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-received': String(received), 'x-custom': 'kept' });
        let sent = 0;
        const pump = () => {
          while (sent < size) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const proxy = await runProxy({ target: `http://127.0.0.1:${(echo.address() as AddressInfo).port}`, captureLimit: 1024 * 1024 });
    try {
      const body = Buffer.alloc(3 * 1024 * 1024, 98);
      const response = await fetch(`${proxy.url}/upload?x=1`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-custom')).toBe('kept');
      expect(response.headers.get('x-received')).toBe(String(body.length));
      let total = 0;
      for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) total += part.length;
      expect(total).toBe(size);
    } finally {
      const report = await proxy.stop();
      echo.close();
      expect(report.exchanges).toBe(1);
      expect(report.unvalidatedBodies).toBe(1);
    }
  });

  it('answers 502 itself when the target cannot be reached, and counts it', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const proxy = await runProxy({ target: `http://127.0.0.1:${port}` });
    const response = await fetch(`${proxy.url}/api/v1/tokens/balance`, { headers: { authorization: 'Bearer x' } });
    expect(response.status).toBe(502);
    expect(await response.text()).toContain('cannot be reached');
    const report = await proxy.stop();
    expect(report).toMatchObject({ exchanges: 0, upstreamErrors: 1, violations: [] });
  });

  it('runs as a command until SIGTERM, then prints and writes its report', async () => {
    const server = await serveOnLoopback(simulatorUnderTest());
    const reports = mkdtempSync(join(tmpdir(), 'proxy-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'contracts/run.ts', 'proxy', '--target', server.baseUrl, '--port', '0', '--report-dir', reports, '--record', join(reports, 'session.har')], { cwd: root, env });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line: ${stdout}`)), 20_000);
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+),/.exec(stdout);
          if (match) (clearTimeout(timer), resolve(match[1] as string));
        });
      });
      const key = server.baseUrl && (await (await fetch(`${server.baseUrl}/_sim/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"proxy","balance":1}' })).json()).keys.readWrite;
      for (let i = 0; i < 3; i++) expect((await fetch(`${url}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
      child.kill('SIGTERM');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stdout).toContain('(SIGTERM)');
      expect(stdout).toMatch(/contracts proxy: 3 exchanges, 0 violation/);
      expect(code).toBe(0);
      const json = JSON.parse(readFileSync(join(reports, 'contracts-proxy.json'), 'utf8')) as ProxyReport;
      expect(json.exchanges).toBe(3);
      expect(readFileSync(join(reports, 'contracts-proxy-junit.xml'), 'utf8')).toContain('<testsuites name="contract proxy"');
      // --record: what passed, as HAR 1.2, the key as its hint only.
      const har = readFileSync(join(reports, 'session.har'), 'utf8');
      expect(JSON.parse(har).log.entries.map((e: { response: { status: number } }) => e.response.status)).toEqual([200, 200, 200]);
      expect(har).not.toContain(key);
      expect(har).toContain(`Bearer svc_live_…${String(key).slice(-4)}`);
      expect(stdout).toContain(`Recording (HAR 1.2): ${join(reports, 'session.har')}`);
    } finally {
      child.kill('SIGKILL');
      await server.close();
    }
  });
});
