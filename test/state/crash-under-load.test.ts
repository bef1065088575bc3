import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, killAll, listAll, serveWithState, sigkill, type Running } from './durable-support.js';
import { repeatRun } from '../support/once.js';

/**
 * --durability every-write under a mixed load (targets, builds, purchases, key revocation and
 * rotation, OAuth grants), killed with SIGKILL at random moments, five times over: every write
 * answered with a success before the kill is there after the restart, no id is given to two
 * records, revoked and rotated keys stay refused, and the ledger sums to the balance.
 */
afterEach(killAll);

const CYCLES = 5;
const WORKERS = 6;
/** Well below the grants an account keeps (100): beyond, the least recently used ones are let go, as designed. */
const MAX_GRANTS = 40;

interface Acknowledged {
  /** id → the name last answered, and one asked for whose answer the kill may have cut off. */
  targets: Map<string, { name: string; asked?: string }>;
  builds: Set<string>;
  transactions: Set<string>;
  refused: Set<string>; // key values revoked or rotated away
  live: Set<string>; // key values made and still valid
  refreshTokens: Set<string>; // the newest refresh token of each grant, answered
}

const randomPause = (min: number, max: number) => new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));

async function refresh(run: Running, token: string): Promise<Response> {
  return fetch(`${run.base}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: 'content-sim-demo' }),
  });
}

/** One worker's writes until the kill: each success remembered only once its answer is in. */
async function worker(run: Running, n: number, ack: Acknowledged, ids: string[], stopped: () => boolean): Promise<void> {
  let i = 0;
  let targetId: string | undefined;
  try {
    while (!stopped()) {
      i++;
      const step = (n + i) % 6;
      if (step === 0 || targetId === undefined) {
        const slug = `w${n}-${Date.now().toString(36)}-${i}`;
        const res = await call(run, 'POST', '/api/v1/targets', { name: `T ${slug}`, slug, brandKit: { voice: 'v', tone: 't' } });
        if (res.status === 201) (ack.targets.set(res.body.id, { name: res.body.name }), ids.push(res.body.id), (targetId = res.body.id));
      } else if (step === 1) {
        const name = `Renamed ${n}-${i}`;
        const kept = ack.targets.get(targetId)!;
        kept.asked = name;
        const res = await call(run, 'PATCH', `/api/v1/targets/${targetId}`, { name });
        if (res.status === 200) ack.targets.set(targetId, { name });
      } else if (step === 2) {
        const res = await call(run, 'POST', '/api/v1/builds', { targetId, buildType: 'single', kind: 'blog', objective: 'Explain espresso at home' });
        if (res.status === 202) (ack.builds.add(res.body.buildId), ids.push(res.body.buildId));
      } else if (step === 3) {
        const res = await call(run, 'POST', '/api/v1/tokens/purchases', { bundleId: 'starter' });
        if (res.status === 201) (ack.transactions.add(res.body.transaction.id), ids.push(res.body.transaction.id));
      } else if (step === 4) {
        const made = await call(run, 'POST', '/api/v1/keys', { name: `k${n}-${i}`, scopes: ['svc:read'] });
        if (made.status !== 201) continue;
        ids.push(made.body.id);
        ack.live.add(made.body.value);
        // Once asked to go, the key is in doubt until the answer comes: a kill may come first.
        ack.live.delete(made.body.value);
        if (i % 2 === 0) {
          const revoked = await call(run, 'DELETE', `/api/v1/keys/${made.body.id}`);
          if (revoked.status === 200) ack.refused.add(made.body.value);
        } else {
          const rotated = await call(run, 'POST', `/api/v1/keys/${made.body.id}/rotate`);
          if (rotated.status === 201) (ack.refused.add(made.body.value), ack.live.add(rotated.body.value), ids.push(rotated.body.id));
        }
      } else if (ack.refreshTokens.size < MAX_GRANTS) {
        const minted = await call(run, 'POST', '/_sim/oauth/tokens', { apiKey: run.key });
        if (minted.status !== 201) continue;
        // Refreshed at once: while that answer is out, the minted token is in doubt (used or not).
        const next = await refresh(run, minted.body.refresh_token);
        if (next.status === 200) ack.refreshTokens.add(((await next.json()) as { refresh_token: string }).refresh_token);
      }
    }
  } catch {
    // The connection died with the process: that write was never answered.
  }
}

describe.skipIf(repeatRun)('--durability every-write under SIGKILL', () => {
  it('keeps every answered write through kills at random moments, and gives no id twice', { timeout: 600_000 }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-crash-')), 'state.json');
    const ack: Acknowledged = { targets: new Map(), builds: new Set(), transactions: new Set(), refused: new Set(), live: new Set(), refreshTokens: new Set() };
    const ids: string[] = [];
    let writes = 0;
    for (let cycle = 0; cycle <= CYCLES; cycle++) {
      const run = await serveWithState(file, ['--speed', 'instant']);
      // Everything answered before the last kill is here.
      const targets = await listAll(run, '/api/v1/targets');
      const names = new Map(targets.map((t) => [t.id, t.name]));
      for (const [id, kept] of ack.targets) {
        // The answered name, or the one a rename cut off by the kill asked for (it may have been kept).
        expect([kept.name, kept.asked], `target ${id} after kill ${cycle}`).toContain(names.get(id));
        ack.targets.set(id, { name: names.get(id) });
      }
      const builds = new Set((await listAll(run, '/api/v1/builds')).map((b) => b.id));
      for (const id of ack.builds) expect(builds.has(id), `build ${id} after kill ${cycle}`).toBe(true);
      const ledger = await listAll(run, '/api/v1/tokens/transactions');
      const entries = new Set(ledger.map((t) => t.id));
      for (const id of ack.transactions) expect(entries.has(id), `purchase ${id} after kill ${cycle}`).toBe(true);
      const balance = (await call(run, 'GET', '/api/v1/tokens/balance')).body;
      expect(ledger.reduce((sum, t) => sum + t.amount, 0), `ledger after kill ${cycle}`).toBe(balance.balance);
      for (const key of ack.refused) expect((await call(run, 'GET', '/api/v1/tokens/balance', undefined, {}, key)).status, 'a revoked or rotated key').toBe(401);
      for (const key of ack.live) expect((await call(run, 'GET', '/api/v1/tokens/balance', undefined, {}, key)).status, 'a live key').toBe(200);
      for (const token of [...ack.refreshTokens]) {
        const res = await refresh(run, token);
        expect(res.status, `refresh token answered before kill ${cycle}: ${res.status === 200 ? '' : await res.clone().text()}`).toBe(200);
        ack.refreshTokens.delete(token);
        ack.refreshTokens.add(((await res.json()) as { refresh_token: string }).refresh_token);
      }
      // No id given to two records: every id answered, across every kill, is unique.
      expect(new Set(ids).size, `ids after kill ${cycle}`).toBe(ids.length);
      if (cycle === CYCLES) break;

      let stopped = false;
      const before = ids.length;
      const load = Array.from({ length: WORKERS }, (_, n) => worker(run, n, ack, ids, () => stopped));
      await randomPause(400, 2500);
      await sigkill(run);
      stopped = true;
      await Promise.all(load);
      writes += ids.length - before;
    }
    expect(writes).toBeGreaterThan(CYCLES * 20);
  });
});
