/**
 * Each shipped scenario loaded three ways (the CLI's --scenario, POST /_sim/scenarios on a
 * running CLI, and the msw handlers in-process) answers the same: the same ids and the same
 * bodies for every read of what it made, each answer valid against the contracts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorHandlers } from '../../src/adapters/msw.js';
import { shippedScenarios } from '../../src/scenarios/shipped.js';
import type { LoadedScenario } from '../../src/scenarios/types.js';
import { assertContract } from '../support/contract.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const names = Object.keys(shippedScenarios) as Array<keyof typeof shippedScenarios>;
const MSW_BASE = 'https://api.scenarios.test';
const children: ChildProcess[] = [];

/** The CLI on a free port; answers its base URL once its banner (scenario keys included) is out. */
async function startCli(args: string[]): Promise<{ baseUrl: string; banner: string }> {
  const child = spawn(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'serve', '--port', '0', '--quiet', '--deterministic-secrets', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const banner = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 60_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes('empty account') && (args.length === 0 || out.includes(`Scenario ${names.at(-1)}`))) (clearTimeout(timer), resolve(out));
    });
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}: ${out}`))));
  });
  return { baseUrl: /listening on\s+(http:\/\/\S+)/.exec(banner)![1]!, banner };
}

type Reply = { status: number; body: string };

/** Every read of what the scenario made, with the key it gave each account. */
async function readAll(base: string, loaded: LoadedScenario): Promise<Record<string, Reply>> {
  const replies: Record<string, Reply> = {};
  for (const [accountName, account] of Object.entries(loaded.accounts)) {
    // Every key's view of the balance (a spent key answers 429), then every read with the last key.
    for (const [keyName, key] of Object.entries(account.keys)) {
      const res = await fetch(`${base}/api/v1/tokens/balance`, { headers: { authorization: `Bearer ${key}` } });
      const body = await res.text();
      assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: res.status, headers: Object.fromEntries(res.headers), body });
      replies[`${accountName}/${keyName} balance`] = { status: res.status, body };
    }
    const [keyName, key] = Object.entries(account.keys).at(-1)!;
    const get = async (path: string, withKey = true) => {
      const res = await fetch(`${base}${path}`, { headers: withKey ? { authorization: `Bearer ${key}` } : {} });
      const body = await res.text();
      assertContract({ method: 'GET', url: path, status: res.status, headers: Object.fromEntries(res.headers), body });
      replies[`${accountName}/${keyName} ${path}`] = { status: res.status, body };
    };
    for (const path of ['/api/v1/tokens/balance', '/api/v1/tokens/transactions?limit=100', '/api/v1/targets', '/api/v1/builds?limit=100', '/api/v1/keys', '/api/v1/images', '/api/v1/audio', '/api/v1/chats']) await get(path);
    for (const targetId of Object.values(account.targets)) await get(`/api/v1/targets/${targetId}/library`);
    for (const build of Object.values(account.builds)) {
      await get(`/api/v1/builds/${build.buildId}`);
      for (const id of build.deliverableIds) {
        await get(`/api/v1/deliverables/${id}`);
        await get(`/api/v1/deliverables/${id}/download?format=md`);
        await get(`/api/v1/deliverables/${id}/shares`);
      }
    }
    for (const id of Object.values(account.chats)) await get(`/api/v1/chats/${id}`);
    for (const share of Object.values(account.shares)) await get(`/api/v1/shared/${share.token}`, false);
  }
  return replies;
}

async function postScenario(base: string, scenario: unknown): Promise<LoadedScenario> {
  const res = await fetch(`${base}/_sim/scenarios`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scenario) });
  const body = await res.text();
  assertContract({ method: 'POST', url: '/_sim/scenarios', status: res.status, headers: Object.fromEntries(res.headers), body });
  expect(res.status).toBe(201);
  return JSON.parse(body) as LoadedScenario;
}

let byCli: { baseUrl: string; banner: string };
let plain: { baseUrl: string };
const msw = simulatorHandlers({ baseUrl: MSW_BASE, deterministicSecrets: true, scenarios: names.map((n) => shippedScenarios[n]) });
const server = setupServer(...msw.handlers);

beforeAll(async () => {
  [byCli, plain] = await Promise.all([startCli(names.flatMap((n) => ['--scenario', n])), startCli([])]);
  server.listen({ onUnhandledRequest: 'bypass' });
}, 90_000);

afterAll(() => {
  server.close();
  for (const child of children) child.kill('SIGTERM');
});

describe('a shipped scenario loaded by the CLI, the control API and msw', () => {
  it('answers the same ids and bodies all three ways', async () => {
    const viaControl: LoadedScenario[] = [];
    for (const name of names) viaControl.push(await postScenario(plain.baseUrl, shippedScenarios[name]));
    const listed = await fetch(`${plain.baseUrl}/_sim/scenarios`);
    const listedText = await listed.text();
    assertContract({ method: 'GET', url: '/_sim/scenarios', status: listed.status, headers: Object.fromEntries(listed.headers), body: listedText });
    expect((JSON.parse(listedText) as { data: Array<{ scenario: string }> }).data.map((s) => s.scenario)).toEqual(names);

    for (const [i, name] of names.entries()) {
      const loaded = viaControl[i]!;
      // The CLI printed the same accounts and keys the control API answered.
      for (const [accountName, account] of Object.entries(loaded.accounts)) {
        expect(byCli.banner).toContain(`account ${accountName} (${account.accountId}), now ${account.now}`);
        for (const [keyName, key] of Object.entries(account.keys)) expect(byCli.banner).toContain(`key ${keyName}: ${key}`);
      }
      expect(msw.simulator.scenarios[i]).toEqual(loaded);
      const [fromCli, fromControl, fromMsw] = await Promise.all([readAll(byCli.baseUrl, loaded), readAll(plain.baseUrl, loaded), readAll(MSW_BASE, loaded)]);
      expect(Object.keys(fromControl).length, name).toBeGreaterThan(7);
      expect(Object.values(fromControl).filter((r) => r.status !== 200).map((r) => r.status), name).toEqual(name === 'rate-limited-key' ? [429] : []);
      expect(fromCli, name).toEqual(fromControl);
      expect(fromMsw, name).toEqual(fromControl);
    }
  }, 120_000);
});
