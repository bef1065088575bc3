import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { assertContract } from './support/contract.js';
import { serve, type Served } from './observe/support.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));

describe('a full memory budget', () => {
  it('refuses what would store more with 503 CAPACITY_EXCEEDED, keeps answering reads, and lets a reset through', async () => {
    const s = await serve();
    running.push(s);
    const me = await s.account();
    const target = (await s.call('POST', '/api/v1/targets', { key: me.key, body: { name: 'Full', slug: 'full' } })).json.id;
    // What the CLI's gauge does when memory passes the budget.
    Object.assign(s.simulator.internal.capacity, { exceeded: true, usedMiB: 600, limitMiB: 512 });

    const refused = await s.call('POST', '/api/v1/builds', { key: me.key, body: { targetId: target, kind: 'blog', objective: 'One too many' } });
    expect([refused.status, refused.json.code]).toEqual([503, 'CAPACITY_EXCEEDED']);
    expect(refused.json.details).toMatchObject({ usedMiB: 600, limitMiB: 512 });
    expect(refused.headers.get('retry-after')).toBe('30');
    expect((await s.call('POST', '/_sim/accounts', { key: null, body: {} })).status).toBe(503);
    // Nothing was charged or stored.
    expect((await s.call('GET', '/api/v1/tokens/balance', { key: me.key })).json.balance).toBe(50);
    expect((await s.call('GET', '/api/v1/builds', { key: me.key })).json.data).toEqual([]);
    expect((await s.call('DELETE', `/api/v1/targets/${target}`, { key: me.key })).status).toBe(204);
    expect((await s.call('POST', `/_sim/accounts/${me.id}/reset`, { key: null, body: {} })).status).toBe(200);
    expect((await s.call('POST', '/_sim/reset', { key: null, body: {} })).status).toBe(200);
  });

  it('is what the CLI answers under --max-memory, measured from its own process', async () => {
    const child = spawn(process.execPath, [`${root}dist/cli/main.js`, 'serve', '--port', '0', '--quiet', '--max-memory', '32'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c) => {
          out += c;
          if (out.includes('empty account')) resolve(out);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const base = /listening on\s+(http:\/\/\S+)/.exec(banner)![1];
      const key = /read\+write\s+(svc_live_\w+)/.exec(banner)![1];
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
        const text = await res.text();
        assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
        return { status: res.status, json: JSON.parse(text) };
      };
      // Node alone takes more than 32 MiB: the budget is used up from the start.
      const created = await call('POST', '/api/v1/targets', { name: 'Tight', slug: 'tight' });
      expect([created.status, created.json.code]).toEqual([503, 'CAPACITY_EXCEEDED']);
      expect((await call('GET', '/api/v1/tokens/balance')).status).toBe(200);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('keeps a server with a small heap alive: past its heap budget it refuses builds instead of dying of "heap out of memory"', async () => {
    const child = spawn(process.execPath, ['--max-old-space-size=32', `${root}dist/cli/main.js`, 'serve', '--port', '0', '--quiet', '--speed', 'instant', '--no-rate-limits'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let died: string | null = null;
    child.once('exit', (code, signal) => (died = `exit ${code} ${signal}`));
    try {
      const banner = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout.on('data', (c) => ((out += c), out.includes('empty account') && resolve(out)));
      });
      const base = /listening on\s+(http:\/\/\S+)/.exec(banner)![1];
      const account = await (await fetch(`${base}/_sim/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ balance: 1_000_000_000 }) })).json();
      const headers = { authorization: `Bearer ${account.keys.readWrite}`, 'content-type': 'application/json' };
      const target = await (await fetch(`${base}/api/v1/targets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Heap', slug: 'heap' }) })).json();
      const create = () => fetch(`${base}/api/v1/builds`, { method: 'POST', headers, body: JSON.stringify({ targetId: target.id, kind: 'blog', objective: 'Fill the heap' }) });
      let made = 0;
      let refusal: { status: number; headers: Headers; text: string } | undefined;
      for (let round = 0; round < 2000 && !refusal && !died; round++) {
        const answers = await Promise.all(Array.from({ length: 20 }, async () => {
          const res = await create();
          const text = await res.text();
          // Half the builds are read once, which regenerates their content behind the cache.
          if (res.status === 202 && made++ % 2 === 0) await (await fetch(`${base}/api/v1/builds/${JSON.parse(text).buildId}`, { headers })).text();
          return { status: res.status, headers: res.headers, text };
        }));
        refusal = answers.find((a) => a.status === 503);
      }
      expect(died).toBeNull();
      expect(refusal).toBeDefined();
      assertContract({ method: 'POST', url: '/api/v1/builds', status: 503, headers: Object.fromEntries(refusal!.headers), body: refusal!.text });
      expect(JSON.parse(refusal!.text).code).toBe('CAPACITY_EXCEEDED');
      expect(made).toBeGreaterThan(1000);
      expect((await fetch(`${base}/api/v1/tokens/balance`, { headers })).status).toBe(200);
      expect(died).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});

