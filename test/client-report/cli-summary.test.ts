import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { account, call } from '../support/account-clock-rig.js';
import { repeatRun } from '../support/once.js';
import { buildBody } from './support.js';

/**
 * `content-sim serve --client-report` prints each account's client report when it stops, and
 * `--client-rules` leaves the rules it turns off unjudged (the report says which).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

it.skipIf(repeatRun)('prints the rules each account broke at shutdown, without the rules turned off', async () => {
  const child = spawn(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', '--port', '0', '--quiet', '--speed', 'realistic', '--client-report', '--client-rules=-poll-too-fast'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 60_000);
      child.stdout.on('data', () => {
        const url = /listening on\s+(http:\/\/\S+)/.exec(out);
        if (url) (clearTimeout(timer), resolve(url[1]!));
      });
    });
    const made = await account(base, { name: 'Sloppy' });
    const key = made.keys.readWrite;
    const target = await call(base, 'POST', '/api/v1/targets', { key, body: { name: 'T', slug: 't', description: 'Coffee gear', brandKit: { voice: 'expert', tone: 'warm' } } });
    const builds = [];
    for (const objective of ['Espresso', 'Latte']) builds.push(await call(base, 'POST', '/api/v1/builds', { key, body: buildBody(target.body.id, objective) }));
    for (let i = 0; i < 4; i++) expect((await call(base, 'GET', `/api/v1/builds/${builds[0]!.body.buildId}`, { key })).status).toBe(200);
    const report = await call(base, 'GET', `/_sim/accounts/${made.accountId}/client-report`);
    expect(report.body.rulesOff).toEqual(['poll-too-fast']);
    expect(report.body.findings.map((f: { rule: string }) => f.rule)).toEqual(['create-without-idempotency-key']);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(out).toMatch(/Client report of account Sloppy \([0-9a-f-]{36}\): the client broke 1 rule of the service\./);
  expect(out).toContain('- create-without-idempotency-key ×2: A build created without an Idempotency-Key');
  expect(out).not.toContain('poll-too-fast ×');
  expect(out).toMatch(/Client report: 1 account with rules broken, \d+ without\./);
}, 120_000);
