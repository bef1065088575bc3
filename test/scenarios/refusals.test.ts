/**
 * A scenario that states what the API could never produce is refused, naming where: the
 * file's line and column from the CLI, the body's path from the control API, and nothing of it
 * is made. The same scenario gives the same ids and bytes again; its keys stay secrets.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/create-app.js';
import { createSimulator } from '../../src/simulator.js';
import { shippedScenarios } from '../../src/scenarios/shipped.js';
import { ScenarioError } from '../../src/scenarios/calls.js';
import { assertContract } from '../support/contract.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Line 12 states a kind the API has no such thing as. */
const UNKNOWN_KIND = `scenario: wrong-kind
accounts:
  - name: user
    balance: 10
    targets:
      - name: Acme
        slug: acme
    builds:
      - name: episode
        target: acme
        objective: Our first episode
        kind: podcast
        status: completed
`;

function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', '--port', '0', '--quiet', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => (child.kill('SIGTERM'), reject(new Error('the CLI started with a refused scenario'))), 60_000);
    child.on('exit', (code) => (clearTimeout(timer), resolve({ code, stderr })));
  });
}

async function post(app: ReturnType<typeof createApp>, path: string, body: unknown) {
  const res = await app.fetch(new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  const text = await res.text();
  assertContract({ method: 'POST', url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, json: JSON.parse(text) };
}

describe('a scenario the API could not produce', () => {
  it('is refused by the CLI naming the file, line and field', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'scenario-')), 'wrong-kind.yaml');
    writeFileSync(file, UNKNOWN_KIND);
    const { code, stderr } = await runCli(['--scenario', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${file}:12:15: accounts[0].builds[0].kind: must be one of`);
  }, 90_000);

  it('is refused by the control API naming the body path, and nothing is made', async () => {
    const app = createApp(createSimulator());
    const before = app.simulator.internal.store.accounts.size;
    const wrongFailure = structuredClone(shippedScenarios['build-in-every-state']) as { accounts: Array<{ builds: Array<Record<string, unknown>> }> };
    // A completed build whose objective asks the API to fail it: the API would fail it.
    wrongFailure.accounts[0]!.builds[5]!.objective = 'Acme launches the R2 arm [fail:merging]';
    const refused = await post(app, '/_sim/scenarios', wrongFailure);
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('VALIDATION_ERROR');
    expect(refused.json.details.fields).toEqual([{ path: 'body.accounts[0].builds[5].objective', message: expect.stringContaining('[fail:merging]') }]);
    // A balance its history cannot end at: a bundle of 50 bought, nothing spent, 10 left.
    const tooLow = await post(app, '/_sim/scenarios', { scenario: 'too-low', accounts: [{ name: 'user', balance: 10, purchases: [{ bundle: 'starter' }] }] });
    expect(tooLow.json.details.fields[0].path).toBe('body.accounts[0].balance');
    // An unknown bundle: the API's own 404, told at the purchase.
    const unknown = await post(app, '/_sim/scenarios', { scenario: 'no-bundle', accounts: [{ name: 'user', purchases: [{ bundle: 'gold' }] }] });
    expect(unknown.json.details.fields[0]).toEqual({ path: 'body.accounts[0].purchases[0]', message: expect.stringContaining('NOT_FOUND') });
    expect(app.simulator.internal.store.accounts.size).toBe(before);
  });

  it('is refused with 503 while the memory budget is used up, like every call that stores more', async () => {
    const app = createApp(createSimulator());
    Object.assign(app.simulator.internal.capacity, { exceeded: true, usedMiB: 310, limitMiB: 300 });
    const full = await post(app, '/_sim/scenarios', shippedScenarios['new-user']);
    expect(full.status).toBe(503);
    expect(full.json.code).toBe('CAPACITY_EXCEEDED');
  });

  it('refuses a build held at a stage where builds take no time', () => {
    const instant = createSimulator({ speed: 'instant' });
    let error: unknown;
    try {
      instant.loadScenario(shippedScenarios['build-in-every-state']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).problems[0]).toEqual({ path: 'accounts[0].builds[0].status', message: expect.stringContaining('never seen pending') });
  });
});

describe('a loaded scenario', () => {
  it('keeps its keys and share tokens out of the journal, and its own requests out of it too', async () => {
    const app = createApp(createSimulator());
    const loaded = await post(app, '/_sim/scenarios', shippedScenarios['full-library']);
    expect(loaded.status).toBe(201);
    const user = loaded.json.accounts.user as { keys: Record<string, string>; shares: Record<string, { token: string }> };
    const journal = await (await app.fetch(new Request('http://127.0.0.1/_sim/journal?limit=100'))).text();
    expect(journal).not.toContain(user.keys.default);
    expect(journal).not.toContain(user.shares['launch-link']!.token);
    // Only the load itself is journaled: none of the API calls it made for the scenario.
    const entries = (JSON.parse(journal) as { data: Array<{ operationId: string | null }> }).data;
    expect(entries.map((e) => e.operationId)).toEqual(['loadScenario']);
  });
});

describe("a scenario account's clock", () => {
  it('is its own, frozen at its stated now, or running on from it', async () => {
    const app = createApp(createSimulator());
    const loaded = await post(app, '/_sim/scenarios', {
      scenario: 'clocks',
      accounts: [{ name: 'still', clock: { at: '2026-05-01T10:00:00Z' } }, { name: 'moving', clock: { at: '2026-05-01T10:00:00Z', running: true } }],
    });
    const clockOf = async (name: string) => {
      const path = `/_sim/accounts/${loaded.json.accounts[name].accountId}/clock`;
      const res = await app.fetch(new Request(`http://127.0.0.1${path}`));
      const text = await res.text();
      assertContract({ method: 'GET', url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
      return JSON.parse(text) as { own: boolean; frozen: boolean; now: string };
    };
    expect(await clockOf('still')).toMatchObject({ own: true, frozen: true, now: '2026-05-01T10:00:00.000Z' });
    expect(await clockOf('moving')).toMatchObject({ own: true, frozen: false });
  });
});

describe('the same scenario', () => {
  it('gives the same ids and bytes in any simulator of that seed, and new ids when loaded again beside itself', () => {
    const a = createSimulator();
    const b = createSimulator();
    const first = a.loadScenario(shippedScenarios['full-library']);
    const second = b.loadScenario(shippedScenarios['full-library']);
    const { keys: keysA, shares: sharesA, ...restA } = first.accounts.user!;
    const { keys: keysB, shares: sharesB, ...restB } = second.accounts.user!;
    expect(restA).toEqual(restB);
    // Keys and share tokens are secrets: drawn at random unless the simulator draws secrets from its seed.
    expect(keysA.default).not.toBe(keysB.default);
    expect(sharesA['launch-link']!.token).not.toBe(sharesB['launch-link']!.token);
    const read = (sim: typeof a, key: string, url: string) => sim.handle({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } }).body;
    const build = restA.builds.launch!;
    for (const url of [`/api/v1/builds/${build.buildId}`, `/api/v1/deliverables/${build.deliverableIds[0]}/download?format=html`, '/api/v1/tokens/transactions']) {
      expect(read(a, keysA.default!, url)).toEqual(read(b, keysB.default!, url));
    }
    const again = a.loadScenario(shippedScenarios['full-library']).accounts.user!;
    expect(again.accountId).not.toBe(restA.accountId);
    expect(again.builds.launch!.buildId).not.toBe(build.buildId);
  });
});
