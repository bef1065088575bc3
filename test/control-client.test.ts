/**
 * simulator-control.yaml as a generated client reads it: openapi-typescript writes its types,
 * a probe using them with openapi-fetch type-checks (so every write that needs a JSON body
 * declares one: a write without a declared body would refuse the probe's `body: {}`), and the
 * same calls, made with openapi-fetch over loopback, reset an account and the simulator.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { createExpressApp } from '../src/adapters/express.js';
import { createSimulator } from '../src/simulator.js';
import { assertContract } from './support/contract.js';
import { repeatRun } from './support/once.js';
import { ensureRuntimes } from './support/runtimes.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const runtimes = ensureRuntimes();
const work = mkdtempSync(join(tmpdir(), 'control-client-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The calls the test makes, written once: type-checked against the generated types, then run. */
const PROBE = `
import createClient from 'openapi-fetch';
import type { paths } from './control.js';

export async function resetBoth(baseUrl: string, accountId: string) {
  const client = createClient<paths>({ baseUrl });
  const account = await client.POST('/_sim/accounts/{accountId}/reset', { params: { path: { accountId } }, body: {} });
  const simulator = await client.POST('/_sim/reset', { body: {} });
  await client.POST('/_sim/clock/freeze', { body: {} });
  await client.POST('/_sim/clock/resume', { body: {} });
  const builds: number | undefined = simulator.data?.builds;
  return { account, simulator, builds };
}
`;

/** Fetch that checks each response against the control contract before the client sees it. */
const checkedFetch = async (request: Request): Promise<Response> => {
  const response = await fetch(request);
  const body = await response.clone().text();
  const url = new URL(request.url);
  assertContract({ method: request.method, url: url.pathname + url.search, status: response.status, headers: Object.fromEntries(response.headers), body });
  return response;
};

describe.skipIf(repeatRun)('a client generated from simulator-control.yaml', () => {
  it('type-checks the reset, freeze and resume calls with their JSON bodies', async () => {
    const dir = join(work, 'types');
    mkdirSync(dir, { recursive: true });
    await run(process.execPath, [join(runtimes, 'openapi-typescript/bin/cli.js'), join(root, 'simulator-control.yaml'), '-o', join(dir, 'control.d.ts')], { cwd: dir, timeout: 60_000 });
    writeFileSync(join(dir, 'probe.ts'), PROBE);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true, types: [],
        // openapi-fetch from the project's own node_modules.
        baseUrl: '.', paths: { 'openapi-fetch': [join(root, 'node_modules/openapi-fetch')] },
      },
      files: ['probe.ts', 'control.d.ts'],
    }));
    const result = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, timeout: 90_000 })
      .then((r) => r.stdout)
      .catch((e: { stdout?: string }) => e.stdout || 'tsc failed');
    expect(result).toBe('');
  }, 120_000);

  it('resets an account and then the whole simulator over HTTP', async () => {
    const simulator = createSimulator({ frozenAt: '2026-03-02T09:00:00.000Z', onFault: () => {} });
    const server = createServer(createExpressApp(simulator)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // Types only matter to the probe above; here the same calls run.
      const client = createClient<any>({ baseUrl, fetch: checkedFetch });
      const created = await client.POST('/_sim/accounts', { body: { name: 'Client test' } });
      expect(created.response.status).toBe(201);
      const accountId = (created.data as { accountId: string }).accountId;
      const key = (created.data as { keys: { readWrite: string } }).keys.readWrite;
      const target = await fetch(`${baseUrl}/api/v1/targets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Brand', slug: 'brand', description: 'Coffee gear for home baristas' }),
      });
      expect(target.status).toBe(201);

      const accountReset = await client.POST('/_sim/accounts/{accountId}/reset', { params: { path: { accountId } }, body: {} });
      expect(accountReset.response.status).toBe(200);
      const targets = await fetch(`${baseUrl}/api/v1/targets`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await targets.json()) as { data: unknown[] }).data).toEqual([]);

      const simulatorReset = await client.POST('/_sim/reset', { body: {} });
      expect(simulatorReset.response.status).toBe(200);
      expect(simulatorReset.data).toMatchObject({ builds: 0, clock: { frozen: true } });
      // The account made after start is gone with the reset: the seeded accounts alone remain.
      const gone = await client.POST('/_sim/accounts/{accountId}/reset', { params: { path: { accountId } }, body: {} });
      expect(gone.response.status).toBe(404);
    } finally {
      server.close();
    }
  }, 60_000);
});
