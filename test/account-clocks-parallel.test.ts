import { describe, expect, it } from 'vitest';
import { assertContract } from './support/contract.js';
import { runContractsCommand } from './support/contracts-command.js';
import { repeatRun } from './support/once.js';
import { mcpCall } from './oauth/support.js';
import { serveOnLoopback, simulatorUnderTest } from './violations/violated-simulator.js';

/** Any call, its response validated against openapi.yaml or simulator-control.yaml. */
async function call(base: string, method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe.skipIf(repeatRun)('two contract runs in parallel on one simulator, each on its account\'s own clock', { timeout: 240_000 }, () => {
  it('both pass, and the simulator\'s clock and a third client\'s token, idempotency replay and share link are untouched', async () => {
    const target = simulatorUnderTest();
    const server = await serveOnLoopback(target);
    const base = server.baseUrl;
    const key = target.simulator.keys.readWrite;
    try {
      // The third client, in the seeded account: a build (with an Idempotency-Key), finished so it can be shared.
      const made = await call(base, 'POST', '/api/v1/targets', { key, body: { name: 'Third client', slug: 'third-client', description: 'Coffee gear for home baristas', brandKit: { voice: 'expert', tone: 'warm' } } });
      const buildBody = { targetId: made.body.id, buildType: 'single', kind: 'blog', objective: 'Explain how to dial in espresso at home', researchPolicy: 'required' };
      const idempotencyKey = 'third-client-build-1';
      const build = await call(base, 'POST', '/api/v1/builds', { key, body: buildBody, headers: { 'idempotency-key': idempotencyKey } });
      expect(build.status).toBe(202);
      await call(base, 'POST', '/_sim/clock/advance', { body: { seconds: 7200 } });
      const finished = await call(base, 'GET', `/api/v1/builds/${build.body.buildId}`, { key });
      expect(finished.body.build.status).toBe('completed');
      const share = await call(base, 'POST', `/api/v1/deliverables/${finished.body.deliverables[0].id}/shares`, { key, body: { expiresInSeconds: 3600 } });
      expect(share.status).toBe(201);
      const sharePath = new URL(share.body.url, base).pathname;
      const minted = await call(base, 'POST', '/_sim/oauth/tokens', { body: { apiKey: key } });
      const token = minted.body.access_token as string;
      const offsetBefore = target.simulator.clock.now() - Date.now();

      /** What the third client sees: its token works, its build replays, its link opens. */
      const thirdClientIsFine = async () => {
        const mcp = await mcpCall(base, token);
        expect(mcp.status, `${Date.now() - startedAt} ms: ${await mcp.clone().text()}`).toBe(200);
        const replay = await call(base, 'POST', '/api/v1/builds', { key, body: buildBody, headers: { 'idempotency-key': idempotencyKey } });
        expect(replay.status).toBe(200);
        expect(replay.body).toMatchObject({ buildId: build.body.buildId, idempotent: true });
        expect((await call(base, 'GET', sharePath)).status).toBe(200);
      };

      const startedAt = Date.now();
      const runs = Promise.all([1, 2].map(() => runContractsCommand(['--base-url', base, '--level', 'strict'])));
      // The third client works while the runs move their clocks (a bounded number of rounds, each
      // replaying a build creation: 8 s apart keeps them under the key's 10 creations a minute).
      let settled = false;
      void runs.finally(() => (settled = true));
      for (let round = 0; round < 25 && !settled; round++) {
        await thirdClientIsFine();
        for (let waited = 0; waited < 8 && !settled; waited++) await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      for (const run of await runs) {
        expect(run.stdout.trimEnd().split('\n').at(-1), run.stdout.slice(-3000)).toMatch(/^contracts: \d+ passed, 0 failed, 0 skipped, \d+ unverified$/);
        expect(run.code).toBe(0);
        expect(run.stderr).toBe('');
      }

      await thirdClientIsFine();
      // The simulator's clock runs where it ran: neither run moved it.
      expect(target.simulator.clock.frozen).toBe(false);
      expect(Math.abs(target.simulator.clock.now() - Date.now() - offsetBefore)).toBeLessThan(1000);
      // Each run moved its own account's clock, ahead of the simulator's.
      const accounts = (await call(base, 'GET', '/_sim/accounts?limit=500')).body.data as Array<{ name: string; clock?: { nowMs: number } }>;
      const runClocks = accounts.filter((a) => /^Contract checks /.test(a.name) && a.clock).map((a) => a.clock!.nowMs);
      expect(runClocks).toHaveLength(2);
      for (const nowMs of runClocks) expect(nowMs).toBeGreaterThan(target.simulator.clock.now() + 60_000);
    } finally {
      await server.close();
    }
  });
});
