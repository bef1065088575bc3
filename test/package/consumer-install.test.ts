import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertContract } from '../support/contract.js';
import { npmEnv, packedTarball, run, versionOf } from './packed.js';

/**
 * A consumer's install as it is: `npm install <tarball>` in an empty project and nothing else,
 * on whichever Node runs the suite. It prints no warning and brings only the package's own
 * dependencies: express, like msw, is an optional peer. Without it `createExpressApp` says
 * what to install, and everything else works; with it installed beside the package, the
 * same call serves the simulator.
 */
let project: string;
let install: { stdout: string; stderr: string };

beforeAll(async () => {
  const tarball = await packedTarball();
  project = mkdtempSync(join(tmpdir(), 'sim-consumer-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  install = await run('npm', ['install', '--prefer-offline', tarball], { cwd: project, env: npmEnv, maxBuffer: 1 << 24 });
}, 240_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

const useWithoutExpress = `
  import { createSimulator, createExpressApp } from 'content-service-simulator';
  const sim = createSimulator({ frozenAt: '2026-03-02T09:00:00Z' });
  const reply = sim.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: 'Bearer ' + sim.keys.readWrite } });
  let error;
  try { createExpressApp(sim); } catch (e) { error = e.message; }
  console.log(JSON.stringify({ status: reply.status, error }));
`;

const serveThroughExpress = `
  import { createServer } from 'node:http';
  import { createSimulator, createExpressApp } from 'content-service-simulator';
  const sim = createSimulator({ frozenAt: '2026-03-02T09:00:00Z' });
  const server = createServer(createExpressApp(sim)).listen(0, '127.0.0.1', async () => {
    const url = '/api/v1/tokens/balance';
    const res = await fetch('http://127.0.0.1:' + server.address().port + url, { headers: { authorization: 'Bearer ' + sim.keys.readWrite } });
    console.log(JSON.stringify({ method: 'GET', url, status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() }));
    server.close();
  });
`;

describe("a consumer's install of the packed package", () => {
  it('prints no warning, and installs neither express nor msw', () => {
    const warnings = `${install.stdout}\n${install.stderr}`.split('\n').filter((line) => /\bwarn/i.test(line));
    expect(warnings).toEqual([]);
    expect(existsSync(join(project, 'node_modules/content-service-simulator/package.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/express'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/msw'))).toBe(false);
  });

  it('without express, createExpressApp throws an error naming the install command, and the simulator works', async () => {
    writeFileSync(join(project, 'without-express.mjs'), useWithoutExpress);
    const { stdout } = await run(process.execPath, ['without-express.mjs'], { cwd: project });
    const outcome = JSON.parse(stdout) as { status: number; error?: string };
    expect(outcome.status).toBe(200);
    expect(outcome.error).toMatch(/createExpressApp needs express.*`npm install express`/);
  });

  it('with express installed beside it, createExpressApp serves the simulator', async () => {
    const added = await run('npm', ['install', '--prefer-offline', `express@${versionOf('express')}`], { cwd: project, env: npmEnv, maxBuffer: 1 << 24 });
    expect(`${added.stdout}\n${added.stderr}`).not.toMatch(/\bwarn/i);
    writeFileSync(join(project, 'with-express.mjs'), serveThroughExpress);
    const { stdout } = await run(process.execPath, ['with-express.mjs'], { cwd: project, timeout: 30_000 });
    const observed = JSON.parse(stdout) as { method: string; url: string; status: number; headers: Record<string, string>; body: string };
    assertContract(observed);
    expect(observed.status).toBe(200);
    expect(observed.headers['x-powered-by']).toBeUndefined();
    expect(JSON.parse(observed.body)).toMatchObject({ balance: expect.any(Number) });
  }, 120_000);
});
