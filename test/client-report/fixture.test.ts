import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { repeatRun } from '../support/once.js';

/**
 * The Vitest fixture's `expectCleanClient`: run on a spec file whose first test polls a build
 * every 200 ms and whose second polls every 30 s of the account's clock, it fails the first
 * naming the rule broken and lets the second pass.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

it.skipIf(repeatRun)('fails the test whose client polls too fast, naming the rule, and passes the one that polls calmly', async () => {
  const report = join(mkdtempSync(join(tmpdir(), 'client-report-fixture-')), 'report.json');
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(`${root}node_modules/.bin/vitest`, ['run', '-c', 'test/fixture-apps/client-report/vitest.config.ts', '--reporter=json', `--outputFile=${report}`], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.stderr.on('data', (c) => (text += c));
    child.on('exit', (exit) => resolve({ code: exit, output: text }));
  });
  expect(code, output).toBe(1);
  const results = (JSON.parse(readFileSync(report, 'utf8')) as { testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }> }).testResults.flatMap((file) => file.assertionResults);
  expect(results.map((r) => [r.title, r.status])).toEqual([
    ['a client that polls every 200 ms', 'failed'],
    ['a client that polls every 30 s until the end', 'passed'],
  ]);
  const message = results[0]?.failureMessages.join('\n') ?? '';
  expect(message).toContain('ClientRulesBroken');
  expect(message).toContain('poll-too-fast ×2: A running build polled much faster than every 30 seconds');
  expect(message).toContain('advice: Wait about 30 seconds');
}, 120_000);
