import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromEnv, flagsToEnv, USAGE } from '../contracts/suite/config.js';
import { SuiteRun, type CheckResult } from '../contracts/suite/runner.js';
import { MODEL_FAULTS, type ModelFault } from './violations/model-faults.js';
import { serveOnLoopback, simulatorUnderTest, type TestTarget } from './violations/violated-simulator.js';
import { repeatRun } from './support/once.js';

const BASE = 'http://simulator.in-process';
const ID = 'model-based.sequences';

/** Runs the model-based phase alone (the session set up as the suite does), with the options given. */
async function modelPhase(fetchImpl: TestTarget['fetch'] | undefined, env: Record<string, string>): Promise<{ result: CheckResult; requests: number; tokensSpent: number }> {
  const config = configFromEnv({ CONTRACT_BASE_URL: BASE, CONTRACT_LEVEL: 'strict', CONTRACT_RUN_ID: 'model-test', ...env });
  const run = await SuiteRun.open(config, fetchImpl);
  const check = run.checks.find((c) => c.id === ID);
  if (!check) throw new Error(`the suite has no check ${ID}`);
  const result = await run.run(check);
  await run.finish();
  return { result, requests: run.session.client.requests, tokensSpent: run.session.tokensSpent };
}

/** The numbered steps of a failure's shortest sequence. */
function stepsOf(message: string): string[] {
  return message.split('\n').filter((line) => /^ {6}\d+\. /.test(line));
}

/** The reproduction script printed with a failure. */
function scriptOf(message: string): string {
  const lines = message.split('\n');
  const start = lines.findIndex((l) => l.includes('reproduction (save as repro.mjs)'));
  return lines.slice(start + 1).map((l) => l.replace(/^ {6}/, '')).join('\n');
}

/** A seed that finds the fault within the default sequences (the phase is deterministic for a seed against the in-process simulator). */
const SEEDS: Readonly<Record<string, number>> = {
  'replay-charges-after-an-hour': 3,
  'idempotency-window-ends-early': 3,
  'purchase-other-bundle-not-refused': 2,
  'refund-one-short': 3,
  'keyless-builds-not-listed': 2,
  'revoked-key-works-over-mcp': 3,
  'mcp-builds-not-charged': 2,
};

describe('the model-based phase against a correct simulator', () => {
  it.each([
    ['strict', [11, 12, 13, 14]],
    ['documented', [21, 22]],
  ] as const)('finds nothing at the %s level over several seeds, and runs real sequences', async (level, seeds) => {
    for (const seed of seeds) {
      const { result, requests } = await modelPhase(simulatorUnderTest().fetch, { CONTRACT_LEVEL: level, CONTRACT_MODEL_SEED: String(seed), CONTRACT_MODEL_RUNS: '30' });
      expect(result.message ?? '', `seed ${seed}`).toBe('');
      expect(result.status).toBe('passed');
      expect(requests, `seed ${seed}: the sequences made calls`).toBeGreaterThan(300);
    }
  }, 240_000);

  it('passes over a real loopback port, MCP and concurrent calls included', async () => {
    const server = await serveOnLoopback(simulatorUnderTest());
    try {
      const { result } = await modelPhase(undefined, { CONTRACT_BASE_URL: server.baseUrl, CONTRACT_MODEL_SEED: '5', CONTRACT_MODEL_RUNS: '15' });
      expect(result.message ?? '').toBe('');
      expect(result.status).toBe('passed');
    } finally {
      await server.close();
    }
  }, 120_000);

  it.each(['strict', 'documented'])('against a server without the control API (%s level) moves no clock and spends within the token budget', async (level) => {
    const target = simulatorUnderTest(undefined, { speed: 'instant' });
    const sent: string[] = [];
    const watched: TestTarget['fetch'] = (input, init) => (sent.push(new URL(input).pathname), target.fetch(input, init));
    const keys = target.simulator.keys;
    const { result, tokensSpent } = await modelPhase(watched, {
      CONTRACT_LEVEL: level, CONTRACT_SIMULATOR: '0', CONTRACT_TOKEN_BUDGET: '4', CONTRACT_MODEL_SEED: '7', CONTRACT_MODEL_RUNS: '6',
      CONTRACT_KEY_READ_WRITE: keys.readWrite, CONTRACT_KEY_READ_ONLY: keys.readOnly, CONTRACT_KEY_WRITE_ONLY: keys.writeOnly, CONTRACT_KEY_REVOKED: keys.revoked, CONTRACT_KEY_EMPTY: keys.emptyAccount,
    });
    expect(result.message ?? '').toBe('');
    expect(result.status).toBe('passed');
    expect(sent.filter((p) => p.startsWith('/_sim'))).toEqual([]);
    expect(sent.filter((p) => p === '/api/v1/builds').length).toBeGreaterThan(0);
    expect(tokensSpent).toBeLessThanOrEqual(4);
  }, 120_000);

  it('is left out with --no-model, and its options parse from flags', async () => {
    const off = await SuiteRun.open(configFromEnv({ CONTRACT_BASE_URL: BASE, CONTRACT_MODEL: '0' }), simulatorUnderTest().fetch);
    expect(off.checks.map((c) => c.id)).not.toContain(ID);
    await off.finish();
    const env = flagsToEnv(['--model-seed', '42', '--model-runs=7', '--model-time', '9', '--model-path', '3:1:0', '--no-model']).env;
    expect(configFromEnv({ CONTRACT_BASE_URL: BASE, ...env }).model).toEqual({ enabled: false, seed: 42, runs: 7, timeBudgetMs: 9000, path: '3:1:0', maxCommands: undefined });
    expect(() => configFromEnv({ CONTRACT_BASE_URL: BASE, CONTRACT_MODEL_SEED: 'abc' })).toThrow(/CONTRACT_MODEL_SEED/);
    for (const flag of ['--no-model', '--model-seed', '--model-path', '--model-runs', '--model-time']) expect(USAGE).toContain(flag);
  });
});

// Finding and shrinking planted faults is the same on every Node: CI's first pass only.
describe.skipIf(repeatRun)('the model-based phase finds faults nobody wrote a check for, shrunk to a short reproduction', () => {
  const cases = MODEL_FAULTS.flatMap((f) => [[`${f.id}, strict level`, f, 'strict'] as const, ...(f.documented ? [[`${f.id}, documented level`, f, 'documented'] as const] : [])]);

  it('has a seed for every planted fault', () => {
    expect(MODEL_FAULTS.length).toBeGreaterThanOrEqual(6);
    for (const f of MODEL_FAULTS) expect(SEEDS[f.id], f.id).toBeDefined();
  });

  it.each(cases)('%s', async (_, fault: ModelFault, level) => {
    const seed = String(SEEDS[fault.id]);
    const { result } = await modelPhase(simulatorUnderTest(fault).fetch, { CONTRACT_LEVEL: level, CONTRACT_MODEL_SEED: seed });
    expect(result.status).toBe('failed');
    const message = result.message ?? '';
    expect(message).toContain(fault.rule);
    expect(message).toContain(`--model-seed ${seed} --model-path '`);
    const steps = stepsOf(message).filter((s) => !/^\s*\d+\. finally /.test(s));
    expect(steps.length, message).toBeGreaterThan(0);
    expect(steps.length, message).toBeLessThanOrEqual(5);
    expect(scriptOf(message)).toMatch(/^\/\/ content-contracts model-based phase/);
  }, 120_000);

  it('replays a failure from its seed and path, and its reproduction runs against the faulty server', async () => {
    const fault = MODEL_FAULTS.find((f) => f.id === 'mcp-builds-not-charged') as ModelFault;
    const server = await serveOnLoopback(simulatorUnderTest(fault));
    const dir = mkdtempSync(join(tmpdir(), 'model-repro-'));
    try {
      const first = await modelPhase(undefined, { CONTRACT_BASE_URL: server.baseUrl, CONTRACT_MODEL_SEED: String(SEEDS[fault.id]) });
      const message = first.result.message ?? '';
      const [, seed, path] = /--model-seed (\S+) --model-path '([^']+)'/.exec(message) ?? [];
      const again = await modelPhase(undefined, { CONTRACT_BASE_URL: server.baseUrl, CONTRACT_MODEL_SEED: seed as string, CONTRACT_MODEL_PATH: path as string });
      expect(again.result.status, again.result.message).toBe('failed');
      expect(stepsOf(again.result.message ?? '')).toEqual(stepsOf(message));
      expect(again.requests).toBeLessThan(first.requests);

      const script = join(dir, 'repro.mjs');
      writeFileSync(script, scriptOf(message));
      // Run apart (the server answers from this process, which must not block on it).
      const { stdout: out } = await promisify(execFile)(process.execPath, [script], { env: { ...process.env, BASE_URL: server.baseUrl }, encoding: 'utf8', timeout: 60_000 });
      expect(out).toContain('MCP createBuild');
      // The script shows the fault as the phase saw it: the last balance read is the one the model refused.
      const refused = /got (\{"balance":\d+,"lifetimePurchased":\d+,"lifetimeUsed":\d+\})/.exec(message)?.[1];
      const balances = [...out.matchAll(/GET \/api\/v1\/tokens\/balance → 200 (\{.*\})/g)].map((m) => JSON.parse(m[1] as string));
      expect(refused).toBeDefined();
      expect(balances.at(-1)).toEqual(JSON.parse(refused as string));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  }, 180_000);
});
