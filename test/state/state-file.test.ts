import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { assertContract } from '../support/contract.js';

/** --state-file: the simulation survives a restart, a SIGKILL at any moment, and refuses a file it cannot read. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));

const INTERVAL_MS = 200;

interface Running {
  child: ChildProcess;
  base: string;
  key: string;
}

function serve(stateFile: string, extra: string[] = []): Promise<Running> {
  const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--quiet', '--no-rate-limits', '--state-file', stateFile, '--state-interval', String(INTERVAL_MS / 1000), ...extra];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const port = /listening on\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const key = /read\+write\s+(svc_live_[0-9a-f]{40})/.exec(out)?.[1];
      if (port && key && out.includes('empty account')) (clearTimeout(timer), resolve({ child, base: `http://127.0.0.1:${port}`, key }));
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}: ${out}`))));
  });
}

/** The CLI's exit code and what it printed on stderr, for a start that must fail. */
function failedStart(stateFile: string, extra: string[] = []): Promise<{ code: number | null; stderr: string }> {
  const args = ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', '0', '--quiet', '--state-file', stateFile, ...extra];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

async function call(run: Running, method: string, path: string, body?: unknown) {
  const res = await fetch(`${run.base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${run.key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function targetIds(run: Running): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page = await call(run, 'GET', `/api/v1/targets?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    for (const t of page.body.data) ids.add(t.id);
    cursor = page.body.nextCursor;
  } while (cursor);
  return ids;
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('content-sim serve --state-file', () => {
  it('picks up after a restart where it stopped: accounts, keys, targets, and the seed', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-state-')), 'state.json');
    const first = await serve(file, ['--seed', 'kept-seed']);
    const created = await call(first, 'POST', '/api/v1/keys', { name: 'ci', scopes: ['svc:read'] });
    const target = await call(first, 'POST', '/api/v1/targets', { name: 'Kept', slug: 'kept', brandKit: { voice: 'v', tone: 't' } });
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600); // share tokens and grants are in it
    expect(readFileSync(file, 'utf8')).not.toContain(created.body.value); // keys only by digest

    // No --seed: the file's is taken, so the same demo key comes back.
    const second = await serve(file);
    expect(second.key).toBe(first.key);
    expect((await call(second, 'GET', `/api/v1/targets/${target.body.id}`)).body.name).toBe('Kept');
    expect((await call({ ...second, key: created.body.value }, 'GET', '/api/v1/tokens/balance')).status).toBe(200);
    const info = await fetch(`${second.base}/_sim`).then((r) => r.json());
    expect(info.seed).toBe('kept-seed');
  });

  it('with --durability interval, loses at most one interval to SIGKILL under load, and never leaves a file it cannot read', { timeout: 120_000 }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-state-')), 'state.json');
    const acknowledged: Array<{ id: string; at: number }> = [];
    let slug = 0;
    for (let round = 0; round < 5; round++) {
      // Quotas out of reach: this load creates more targets than one account may hold by default.
      const run = await serve(file, ['--durability', 'interval', '--quota-targets', '1000000', '--quota-stored-mib', '4096']);
      const present = await targetIds(run);
      // Every write acknowledged more than an interval (and 600 ms for a busy machine's late timers) before the last kill is here.
      for (const ack of acknowledged) expect(present.has(ack.id), `target ${ack.id} acknowledged before round ${round}`).toBe(true);
      acknowledged.length = 0;
      let killed = false;
      const worker = async () => {
        while (!killed) {
          try {
            const res = await call(run, 'POST', '/api/v1/targets', { name: `T${slug}`, slug: `t-${slug++}`, brandKit: { voice: 'v', tone: 't' } });
            if (res.status === 201) acknowledged.push({ id: res.body.id, at: performance.now() });
          } catch {
            return; // the connection died with the process: that write was never acknowledged
          }
        }
      };
      const load = [worker(), worker(), worker()];
      await new Promise((r) => setTimeout(r, 1500 + 150 * round));
      const killAt = performance.now();
      run.child.kill('SIGKILL');
      killed = true;
      await exited(run.child);
      await Promise.all(load);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      expect(saved).toMatchObject({ format: 'content-sim-state', version: 1 });
      const old = acknowledged.filter((a) => a.at < killAt - INTERVAL_MS - 600);
      expect(old.length, 'writes acknowledged in the round').toBeGreaterThan(0);
      acknowledged.splice(0, acknowledged.length, ...old);
    }
  });

  it('refuses a file it cannot read, and leaves it as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-state-'));
    const garbage = join(dir, 'garbage.json');
    writeFileSync(garbage, '{"format":"content-sim-state", trunc', { mode: 0o600 });
    const refused = await failedStart(garbage);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/state file .*garbage\.json is not JSON/);
    expect(readFileSync(garbage, 'utf8')).toBe('{"format":"content-sim-state", trunc');

    const future = join(dir, 'future.json');
    writeFileSync(future, JSON.stringify({ format: 'content-sim-state', version: 9, seed: 'content-sim' }), { mode: 0o600 });
    const newer = await failedStart(future);
    expect(newer.code).toBe(1);
    expect(newer.stderr).toMatch(/cannot be restored:\n\s+version: is 9; this simulator reads version 1/);

    // A byte that is not UTF-8 (0xFF) would have loaded as U+FFFD: refused, and no start.
    const garbled = join(dir, 'garbled.json');
    writeFileSync(garbled, Buffer.concat([Buffer.from('{"format":"content-sim-state","seed":"'), Buffer.from([0xff]), Buffer.from('"}')]), { mode: 0o600 });
    const notUtf8 = await failedStart(garbled);
    expect(notUtf8.code).toBe(1);
    expect(notUtf8.stderr).toMatch(/state file .*garbled\.json is not valid UTF-8/);

    const valid = join(dir, 'valid.json');
    const run = await serve(valid);
    run.child.kill('SIGTERM');
    await exited(run.child);
    const other = await failedStart(valid, ['--seed', 'another']);
    expect(other.stderr).toMatch(/seed: was saved by a simulator with seed "content-sim"; this one runs with "another"/);
  });
});
