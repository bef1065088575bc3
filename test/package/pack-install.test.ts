import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killGroups, npmEnv, npxServe, run, userProject } from './packed.js';

/**
 * The package as a user gets it: packed (the build runs on `prepare`), installed from the
 * tarball into an empty project with nothing but the npm registry (here its cache), then
 * used through its two commands and its entry points, from plain ESM and from TypeScript.
 */
let project: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  project = await userProject('module');
}, 240_000);

afterAll(() => killGroups(children));

describe('the packed package, installed in an empty project', () => {
  it('serves with npx content-sim serve, and passes npx content-contracts against itself', async () => {
    const { baseUrl } = await npxServe(project, children);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);

    const contracts = await run('npx', ['content-contracts', '--base-url', baseUrl, '--level', 'documented', '--report-dir', join(project, 'reports')], { cwd: project, env: npmEnv, maxBuffer: 1 << 24 });
    const lines = contracts.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^contracts: \d+ passed, 0 failed, 0 skipped, \d+ unverified$/);
  }, 120_000);

  it('imports its entry points from plain ESM', async () => {
    writeFileSync(join(project, 'use.mjs'), `
      import { createSimulator, createNodeHandler } from 'content-service-simulator';
      import { createMswHandlers } from 'content-service-simulator/msw';
      import { createMcpEndpoint } from 'content-service-simulator/mcp';
      const sim = createSimulator({ frozenAt: '2026-03-02T09:00:00Z' });
      const reply = sim.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: 'Bearer ' + sim.keys.readWrite } });
      console.log(JSON.stringify({ status: reply.status, handlers: createMswHandlers(sim).length, mcp: typeof createMcpEndpoint(sim).fetch, node: typeof createNodeHandler(sim) }));
    `);
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ status: 200, handlers: expect.any(Number), mcp: 'function', node: 'function' });
  });

  it.each(['nodenext', 'bundler'])('type-checks a TypeScript user with moduleResolution %s, no @types/express', async (resolution) => {
    writeFileSync(join(project, 'use.ts'), `
      import { createServer } from 'node:http';
      import { createSimulator, createExpressApp, type SimulationSnapshot } from 'content-service-simulator';
      import { createMswHandlers } from 'content-service-simulator/msw';
      import { createMcpEndpoint } from 'content-service-simulator/mcp';
      const sim = createSimulator({ seed: 'typed', speed: 'instant' });
      const snapshot: SimulationSnapshot = sim.snapshot();
      sim.restore(snapshot);
      createServer(createExpressApp(sim));
      const handlers = createMswHandlers(sim, { baseUrl: 'https://api.example.com' });
      const endpoint = createMcpEndpoint(sim);
      export const used = [handlers.length, endpoint, snapshot.version satisfies number];
    `);
    const module = resolution === 'bundler' ? 'esnext' : 'nodenext';
    writeFileSync(join(project, `tsconfig.${resolution}.json`), JSON.stringify({
      compilerOptions: { module, moduleResolution: resolution, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], lib: ['es2022', 'dom'] },
      files: ['use.ts'],
    }));
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], { cwd: project }).catch((e: { stdout: string }) => ({ stdout: e.stdout, failed: true }));
    expect(result.stdout).toBe('');
  }, 60_000);
});
