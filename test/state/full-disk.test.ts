import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repeatRun } from '../support/once.js';
import { bigSnapshot, call, killAll, listAll, postLarge, serveWithState, sigkill, type Running } from './durable-support.js';

/**
 * A served simulator on a disk that fills up (a budget of free bytes the test sets: see
 * disk-budget.ts), killed with SIGKILL and started again with the space back. A restore that
 * does not fit answers an error and changes nothing, and what is answered after it survives;
 * writes on a full disk are refused (503, naming storage) and not kept, reads go on, and
 * `/readyz` says storage fails until space returns, in both durability modes.
 */
afterEach(killAll);

function withDisk(dir: string) {
  const freeFile = join(dir, 'free-bytes');
  writeFileSync(freeFile, String(1e12));
  const serve = (file: string, extra: string[] = []) => serveWithState(file, extra, ['--import', './test/state/disk-budget.ts'], { SIM_TEST_DISK_FREE_FILE: freeFile });
  return { serve, setFree: (bytes: number) => writeFileSync(freeFile, String(bytes)) };
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const readiness = async (run: Running) => (await call(run, 'GET', '/readyz')).status;
const names = async (run: Running) => (await listAll(run, '/api/v1/targets')).map((t) => t.name as string).sort();

describe.skipIf(repeatRun)('a full disk', () => {
  it('a restore that does not fit answers 503 and changes nothing; what is answered after it survives kill -9', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-full-'));
    const disk = withDisk(dir);
    const file = join(dir, 'state.json');
    let run = await disk.serve(file);
    expect((await call(run, 'POST', '/api/v1/targets', { name: 'Before', slug: 'before' })).status).toBe(201);
    const big = bigSnapshot((await call(run, 'GET', '/_sim/snapshot')).body, 4 << 20);
    disk.setFree(2 << 20);
    const restored = await postLarge(run, '/_sim/restore', big);
    expect(restored.status).toBe(503);
    expect(restored.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(restored.body.details.storage.reason).toBe('ENOSPC');
    expect(await names(run)).toEqual(['Before']);
    // The checkpoint that did not fit was removed: its space is free again.
    disk.setFree((2 << 20) + 1);
    // Small writes fit in what is left: storage works again by itself, and they are answered.
    await until('/readyz ready again', async () => (await readiness(run)) === 200);
    const after: string[] = [];
    for (let i = 0; i < 20; i++) {
      expect((await call(run, 'POST', '/api/v1/targets', { name: `After ${i}`, slug: `after-${i}` })).status).toBe(201);
      after.push(`After ${i}`);
    }
    await sigkill(run);
    disk.setFree(1e12);
    run = await disk.serve(file);
    expect(await names(run)).toEqual(['Before', ...after].sort());
  });

  for (const durability of ['every-write', 'interval'] as const) {
    it(`--durability ${durability}: writes are refused and not kept while it is full, reads go on, /readyz says so and recovers`, { timeout: 120_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sim-full-'));
      const disk = withDisk(dir);
      const file = join(dir, 'state.json');
      let run = await disk.serve(file, ['--durability', durability, '--state-interval', '0.05']);
      expect((await call(run, 'POST', '/api/v1/targets', { name: 'Kept', slug: 'kept' })).status).toBe(201);
      // Written (interval mode writes right after the answer) before the disk fills.
      await new Promise((resolve) => setTimeout(resolve, 200));
      disk.setFree(0);
      const answered: string[] = ['Kept'];
      const refused: string[] = [];
      for (let i = 0; i < 6; i++) {
        const created = await call(run, 'POST', '/api/v1/targets', { name: `Full ${i}`, slug: `full-${i}` });
        expect([201, 503]).toContain(created.status);
        if (created.status === 201) answered.push(`Full ${i}`);
        else {
          expect(created.body.details.storage.reason).toBe('ENOSPC');
          refused.push(`Full ${i}`);
        }
        // Reads go on.
        expect((await call(run, 'GET', '/api/v1/tokens/balance')).status).toBe(200);
      }
      // Every-write refuses each; interval acknowledges at most the writes of the moment the disk filled.
      expect(refused.length).toBeGreaterThanOrEqual(durability === 'every-write' ? 6 : 4);
      expect(await readiness(run)).toBe(503);
      const live = await names(run);
      for (const name of refused) expect(live).not.toContain(name);
      disk.setFree(1e12);
      await until('/readyz ready again', async () => (await readiness(run)) === 200);
      expect((await call(run, 'POST', '/api/v1/targets', { name: 'Later', slug: 'later' })).status).toBe(201);
      const served = await names(run);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sigkill(run);
      run = await disk.serve(file);
      const recovered = await names(run);
      expect(recovered).toEqual(served);
      expect(recovered).toContain('Later');
      expect(recovered).toContain('Kept');
      for (const name of refused) expect(recovered).not.toContain(name);
    });
  }
});
