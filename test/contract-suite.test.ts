import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configFromEnv, flagsToEnv } from '../contracts/suite/config.js';
import { ContractValidator, type ObservedResponse } from '../contracts/shared/contract-validator.js';
import { runContractSuite } from '../contracts/suite/runner.js';
import { config, failures, outcome } from './violations/suite-run.js';
import { runContractsCommand } from './support/contracts-command.js';
import { VIOLATIONS, type Violation } from './violations/catalog.js';
import { serveOnLoopback, simulatorUnderTest } from './violations/violated-simulator.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the contract suite against a correct simulator', () => {
  // The in-process runs, at both levels and with the suite's switches, are contract-suite-in-process.test.ts.
  // A whole strict run over loopback, or through a command started under tsx: seconds alone, over a minute on a loaded machine.
  it('passes over a real loopback port, at the strict level', { timeout: 180_000 }, async () => {
    const server = await serveOnLoopback(simulatorUnderTest());
    try {
      const summary = await runContractSuite(config({ CONTRACT_BASE_URL: server.baseUrl }));
      expect(failures(summary)).toBe('');
      expect(outcome(summary, 'builds.every-kind')?.status).toBe('passed');
    } finally {
      await server.close();
    }
  });
});

describe('one command: npm run contracts -- --base-url <url>', () => {
  it('passes against a running simulator, writes the JUnit report and prints the summary line', { timeout: 180_000 }, async () => {
    const server = await serveOnLoopback(simulatorUnderTest());
    const reports = mkdtempSync(join(tmpdir(), 'contracts-'));
    try {
      const run = await runContractsCommand(['--base-url', server.baseUrl, '--level', 'documented', '--report-dir', reports]);
      expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/^contracts: \d+ passed, 0 failed, 0 skipped, \d+ unverified$/);
      expect(run.code).toBe(0);
      const junit = readFileSync(join(reports, 'contracts-junit.xml'), 'utf8');
      expect(junit).toContain('Errors: 402 INSUFFICIENT_TOKENS carries required, available and shortfall');
      expect(junit).toMatch(/failures="0"/);
    } finally {
      await server.close();
    }
  });

  it('fails against a simulator with a seeded violation, and names the broken rule', { timeout: 180_000 }, async () => {
    const violation = VIOLATIONS.find((v) => v.id === 'skipped-status') as Violation;
    const server = await serveOnLoopback(simulatorUnderTest(violation));
    const reports = mkdtempSync(join(tmpdir(), 'contracts-'));
    try {
      const run = await runContractsCommand(['--base-url', server.baseUrl, '--level', 'strict', '--report-dir', reports]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('✗ States: no status is skipped');
      expect(run.stdout).toMatch(/contracts: \d+ passed, [1-9]\d* failed/);
      expect(existsSync(join(reports, 'contracts-junit.xml'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('the contract validator at the documented level', () => {
  const files = { service: join(root, 'openapi.yaml'), control: join(root, 'simulator-control.yaml') };
  const documented = ContractValidator.fromFiles(files, { level: 'documented' });
  const strict = ContractValidator.fromFiles(files);
  const rate = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '1772442060' };
  const json = { 'content-type': 'application/json' };
  const rules = (v: ContractValidator, o: Partial<ObservedResponse>) =>
    v.validate({ method: 'GET', url: '/api/v1/tokens/balance', status: 200, headers: { ...rate, ...json }, body: '{}', ...o }).map((x) => `${x.rule}: ${x.message}`);

  it('holds a response to what the spec states: its fields and the rate-limit headers', () => {
    const balance = JSON.stringify({ balance: 1, lifetimePurchased: 2, lifetimeUsed: 1, bonus: 3 });
    expect(rules(documented, { body: balance })).toEqual([]); // further fields, no correlation id
    expect(rules(strict, { body: balance }).join()).toMatch(/additional properties.*|x-correlation-id/);
    expect(rules(documented, { body: JSON.stringify({ balance: 1, lifetimePurchased: 2 }) }).join()).toContain("must have required property 'lifetimeUsed'");
    expect(rules(documented, { headers: json, body: JSON.stringify({ balance: 1, lifetimePurchased: 2, lifetimeUsed: 0 }) }).join()).toContain('x-ratelimit-limit is missing');
  });

  it('judges only documented headers when told to, as the suite does behind a proxy: an undocumented one passes, a wrong documented value fails', () => {
    const suiteStrict = ContractValidator.fromFiles(files, { allowUndocumentedHeaders: true });
    const balance = JSON.stringify({ balance: 1, lifetimePurchased: 2, lifetimeUsed: 1 });
    const proxied = { ...rate, ...json, 'x-correlation-id': 'corr_abc123', server: 'nginx/1.22.1', via: '1.1 edge', 'set-cookie': 'SERVERID=a; Path=/' };
    expect(rules(strict, { headers: proxied, body: balance }).join()).toContain('header server is not documented');
    expect(rules(suiteStrict, { headers: proxied, body: balance })).toEqual([]);
    for (const v of [suiteStrict, documented]) expect(rules(v, { headers: { ...proxied, 'x-ratelimit-limit': '0' }, body: balance }).join()).toContain('header x-ratelimit-limit="0"');
  });

  it('lets an inferred status stand for its class, and asks an inferred error only for the spec error object', () => {
    const target = { id: crypto.randomUUID(), name: 'A', slug: 'a', brandKit: { voice: 'v', tone: 't' } };
    const created = { method: 'POST', url: '/api/v1/targets', status: 200, body: JSON.stringify(target) };
    expect(rules(documented, created)).toEqual([]); // 201 is inferred: a 200 is as good
    expect(rules(strict, created).join()).toContain('status 200 is not documented');
    const unprocessable = { method: 'POST', url: '/api/v1/targets', status: 422, body: JSON.stringify({ error: 'Bad', code: 'VALIDATION_ERROR', details: {} }) };
    expect(rules(documented, unprocessable)).toEqual([]);
    expect(rules(documented, { ...unprocessable, body: JSON.stringify({ error: 'Bad', code: 'VALIDATION_ERROR' }) }).join()).toContain("required property 'details'");
    // The 400 of getTokenBalance is inferred (a duplicate Authorization header): a 418 stands for it, as an error object.
    expect(rules(documented, { status: 418, body: '{}' }).join()).toContain("required property 'error'");
    expect(rules(documented, { status: 418, body: JSON.stringify({ error: 'Teapot', code: 'X', details: {} }) })).toEqual([]);
    expect(rules(documented, { status: 302, body: '' }).join()).toContain('status 302 is not documented');
  });
});

describe('the runner flags', () => {
  it('become the environment the suite reads', () => {
    const { env } = flagsToEnv(['--base-url', 'http://x:1', '--level=strict', '--no-spend', '--key-read-write', 'k', '--request-budget', '50']);
    expect(env).toEqual({ CONTRACT_BASE_URL: 'http://x:1', CONTRACT_LEVEL: 'strict', CONTRACT_SPEND: '0', CONTRACT_KEY_READ_WRITE: 'k', CONTRACT_REQUEST_BUDGET: '50' });
    const parsed = configFromEnv(env);
    expect(parsed).toMatchObject({ baseUrl: 'http://x:1', level: 'strict', spend: false, exhaust: true, wait: true, requestBudget: 50, keys: { readWrite: 'k' } });
    expect(flagsToEnv(['--allow-purchases']).env).toEqual({ CONTRACT_ALLOW_PURCHASES: '1' });
    expect(configFromEnv({ CONTRACT_BASE_URL: 'http://x', CONTRACT_ALLOW_PURCHASES: '1' }).allowPurchases).toBe(true);
    expect(configFromEnv({ CONTRACT_BASE_URL: 'http://x' }).allowPurchases).toBe(false);
    expect(() => flagsToEnv(['--bogus'])).toThrow(/unknown option --bogus/);
    expect(() => configFromEnv({ CONTRACT_BASE_URL: 'http://x', CONTRACT_LEVEL: 'lenient' })).toThrow(/documented or strict/);
  });
});
