/**
 * The test-runner fixtures: two workers at once, each from its own scenario, drive the same page
 * to different states. Vitest with an in-process simulator per worker; Playwright with both
 * workers on one running simulator, each in accounts of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { browserMissing } from '../support/browser.js';
import { assertContract } from '../support/contract.js';
import { repeatRun } from '../support/once.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.kill('SIGTERM')));

function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

async function startCli(): Promise<string> {
  const child = spawn(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', '--port', '0', '--quiet'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const url = /listening on\s+(http:\/\/\S+)/.exec(out);
      if (url) (clearTimeout(timer), resolve(url[1]!));
    });
  });
}

describe('the Vitest fixture', () => {
  it('gives two parallel workers their own scenario in-process, and the same page two states', async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'fixture-')), 'record.jsonl');
    const { code, output } = await run(`${root}node_modules/.bin/vitest`, ['run', '-c', 'test/fixture-apps/vitest/vitest.config.ts'], { FIXTURE_RECORD: record });
    expect(code, output).toBe(0);
    const rows = readFileSync(record, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { spec: string; pid: number; html: string });
    expect(rows.map((r) => r.spec).sort()).toEqual(['empty-balance', 'every-state']);
    expect(new Set(rows.map((r) => r.pid)).size).toBe(2);
    const [empty, every] = [rows.find((r) => r.spec === 'empty-balance')!, rows.find((r) => r.spec === 'every-state')!];
    expect(empty.html).toContain('No builds yet');
    expect(every.html).toContain('data-status="merging"');
  }, 180_000);
});

describe.skipIf(repeatRun || browserMissing)('the Playwright fixture', () => {
  it('gives two parallel workers their own accounts on one simulator, each page in its own state', async () => {
    const baseUrl = await startCli();
    const report = join(mkdtempSync(join(tmpdir(), 'playwright-')), 'report.json');
    const { code, output } = await run(`${root}node_modules/.bin/playwright`, ['test', '-c', 'test/fixture-apps/playwright/playwright.config.ts'], { SIM_BASE_URL: baseUrl, PLAYWRIGHT_JSON_OUTPUT_NAME: report });
    expect(code, output).toBe(0);
    const results = (JSON.parse(readFileSync(report, 'utf8')) as { suites: Array<{ specs: Array<{ title: string; tests: Array<{ results: Array<{ status: string; workerIndex: number }>; annotations: Array<{ type: string; description: string }> }> }> }> }).suites
      .flatMap((s) => s.specs)
      .flatMap((spec) => spec.tests.map((t) => ({ title: spec.title, result: t.results[0]!, account: t.annotations.find((a) => a.type === 'account')?.description })));
    expect(results.map((r) => r.result.status)).toEqual(['passed', 'passed']);
    expect(new Set(results.map((r) => r.result.workerIndex)).size).toBe(2);
    expect(new Set(results.map((r) => r.account)).size).toBe(2);
    // Both workers' scenarios are in the one simulator, each in its own account.
    const listed = await fetch(`${baseUrl}/_sim/scenarios`);
    const text = await listed.text();
    assertContract({ method: 'GET', url: '/_sim/scenarios', status: listed.status, headers: Object.fromEntries(listed.headers), body: text });
    const scenarios = (JSON.parse(text) as { data: Array<{ scenario: string; accounts: Array<{ accountId: string }> }> }).data;
    expect(scenarios.map((s) => s.scenario).sort()).toEqual(['build-in-every-state', 'empty-balance']);
    expect(scenarios.flatMap((s) => s.accounts.map((a) => a.accountId)).sort()).toEqual(results.map((r) => r.account).sort());
  }, 240_000);
});
