import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repeatRun } from '../support/once.js';
import { bigSnapshot, call, killAll, listAll, postLarge, serveWithState, sigkill, type Running } from './durable-support.js';

/**
 * The full disk of full-disk.test.ts, on a real file system: a tmpfs of 4 MiB mounted for the
 * test (so it runs only as root, where mount works; skipped otherwise, saying why). The kernel
 * answers ENOSPC, not a shim: a restore that does not fit answers 503 and changes nothing,
 * writes on the full disk are refused and not kept, and what is answered once space is back
 * survives kill -9.
 */
const mountPoint = mkdtempSync(join(tmpdir(), 'sim-tmpfs-'));
const mounted = (() => {
  // A repeat pass skips the test: nothing is mounted for it.
  if (repeatRun) return 'a repeat pass';
  if (process.getuid?.() !== 0) return 'not root: a tmpfs cannot be mounted';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', mountPoint], { stdio: 'pipe' });
    return true;
  } catch (error) {
    return `mount failed: ${(error as Error).message.split('\n')[0]}`;
  }
})();
if (mounted !== true) console.log(`full-disk-tmpfs skipped: ${mounted}`);

afterAll(() => {
  killAll();
  if (mounted === true) execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

const free = () => {
  const stats = statfsSync(mountPoint);
  return stats.bavail * stats.bsize;
};

/** Fills the file system but for `room` bytes (a file of the rest), or all of it. */
function fill(name: string, room: number): string {
  const path = join(mountPoint, name);
  const size = Math.max(0, free() - room);
  writeFileSync(path, Buffer.alloc(size));
  // tmpfs counts pages: whatever is left below a page is filled too when all of it is asked for.
  if (room === 0) {
    try {
      writeFileSync(join(mountPoint, `${name}.rest`), Buffer.alloc(free()));
    } catch {
      // nothing left
    }
  }
  return path;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const names = async (run: Running) => (await listAll(run, '/api/v1/targets')).map((t) => t.name as string).sort();

describe.skipIf(mounted !== true)('a really full disk (a 4 MiB tmpfs)', () => {
  it('a restore that does not fit answers 503 and changes nothing; writes refused while full are not kept; what is answered after survives kill -9', { timeout: 120_000 }, async () => {
    const file = join(mountPoint, 'state.json');
    let run = await serveWithState(file);
    expect((await call(run, 'POST', '/api/v1/targets', { name: 'Before', slug: 'before' })).status).toBe(201);
    const big = bigSnapshot((await call(run, 'GET', '/_sim/snapshot')).body, 3 << 20);
    // About 1 MiB left: the restore's checkpoint (3 MiB) does not fit.
    const filler = fill('filler', 1 << 20);
    const restored = await postLarge(run, '/_sim/restore', big);
    expect(restored.status, JSON.stringify(restored.body)).toBe(503);
    expect(restored.body.details.storage.reason).toBe('ENOSPC');
    expect(await names(run)).toEqual(['Before']);

    // Nothing left at all: a write that still fits in a page the log holds is kept (and answered
    // 201); the first that needs a page more is refused, and not kept; reads go on.
    const rest = fill('rest', 0);
    const kept: string[] = ['Before'];
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const created = await call(run, 'POST', '/api/v1/targets', { name: `Full ${i}`, slug: `full-${i}` });
      if (created.status === 201) kept.push(`Full ${i}`);
      else refused = created;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body.details.storage.reason).toBe('ENOSPC');
    expect((await call(run, 'GET', '/readyz')).status).toBe(503);
    expect(await names(run)).toEqual(kept.sort());

    // Space back: ready again by itself, and every write answered from now on survives a SIGKILL.
    for (const path of [filler, rest, `${rest}.rest`]) rmSync(path, { force: true });
    await until('/readyz ready again', async () => (await call(run, 'GET', '/readyz')).status === 200);
    const after: string[] = [];
    for (let i = 0; i < 20; i++) {
      expect((await call(run, 'POST', '/api/v1/targets', { name: `After ${i}`, slug: `after-${i}` })).status).toBe(201);
      after.push(`After ${i}`);
    }
    await sigkill(run);
    run = await serveWithState(file);
    expect(await names(run)).toEqual([...kept, ...after].sort());
    await sigkill(run);
    unlinkSync(file);
  });
});
