import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceOf } from '../src/index.js';
import { assertContract } from './support/contract.js';
import { serve, type Served } from './observe/support.js';

/**
 * Two simulators behind a proxy that routes on the credential, as nginx or Envoy would with a
 * prefix match: the rule the README gives, proved end to end.
 */
let instances: Served[];
let proxy: Server;
let base: string;
const routed = [0, 0];

/** The README's routing rule: the instance a key or share link names; new accounts round robin; the rest to instance 0. */
function route(authorization: string | undefined, method: string | undefined, path: string, counter: { next: number }): number {
  const owner = instanceOf(authorization ?? '') ?? instanceOf(path);
  if (owner !== undefined) return owner;
  return method === 'POST' && path === '/_sim/accounts' ? counter.next++ % instances.length : 0;
}

beforeAll(async () => {
  instances = [await serve({ instance: 0, seed: 'fleet', speed: 'instant' }), await serve({ instance: 1, seed: 'fleet', speed: 'instant' })];
  const counter = { next: 0 };
  proxy = createServer((req, res) => {
    const target = route(req.headers.authorization, req.method, req.url ?? '/', counter);
    routed[target]!++;
    const upstream = new URL(instances[target]!.base);
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await Promise.all(instances.map((s) => s.close()));
});

async function call(method: string, path: string, key: string | null, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

describe('several instances behind one proxy, routed on the key', () => {
  it('mint keys and ids that name their instance and never collide', () => {
    const [a, b] = instances as [Served, Served];
    expect(a.simulator.keys.readWrite).toMatch(/^svc_live_00[0-9a-f]{38}$/);
    expect(b.simulator.keys.readWrite).toMatch(/^svc_live_01[0-9a-f]{38}$/);
    expect(instanceOf(`Bearer ${b.simulator.keys.readOnly}`)).toBe(1);
    expect(instanceOf(`bearer ${b.simulator.keys.readOnly}`)).toBe(1);
    expect(instanceOf('svc_live_zz')).toBeUndefined();
    const idsOf = (s: Served) => [...s.simulator.internal.store.accounts.keys()];
    expect(idsOf(a).filter((id) => idsOf(b).includes(id))).toEqual([]);
  });

  it('keep every account on the instance that made it: each call lands where its key was minted', async () => {
    // Unkeyed: the proxy spreads account creation over the instances.
    const accounts = [];
    for (let i = 0; i < 4; i++) accounts.push((await call('POST', '/_sim/accounts', null, { balance: 30 })).json);
    const owners = accounts.map((a) => instanceOf(a.keys.readWrite as string));
    expect(owners.sort()).toEqual([0, 0, 1, 1]);

    for (const [i, account] of accounts.entries()) {
      const key = account.keys.readWrite as string;
      const target = await call('POST', '/api/v1/targets', key, { name: `Brand ${i}`, slug: `brand-${i}` });
      expect(target.status).toBe(201);
      const build = await call('POST', '/api/v1/builds', key, { targetId: target.json.id, kind: 'blog', objective: `Fleet ${i}` });
      expect(build.status).toBe(202);
      expect((await call('GET', `/api/v1/builds/${build.json.buildId}`, key)).status).toBe(200);
      expect((await call('GET', '/api/v1/tokens/balance', key)).json.balance).toBeLessThan(30);
      // The account lives on its instance only: the other one has never heard of its key.
      const owner = instances[instanceOf(key)!]!;
      const other = instances[1 - instanceOf(key)!]!;
      expect(owner.simulator.internal.store.account(account.accountId)?.builds.size).toBe(1);
      expect(other.simulator.internal.store.account(account.accountId)).toBeUndefined();
      const misrouted = await other.call('GET', '/api/v1/tokens/balance', { key });
      expect(misrouted.status).toBe(401);
      // The refusal names the key's instance, so a wrong route is plain to see.
      expect(misrouted.json.error).toBe(
        `The API key is not recognised: it names instance ${instanceOf(key)} (svc_live_0${instanceOf(key)}…), and this is instance ${1 - instanceOf(key)!}, which knows only its own accounts.`,
      );
    }
    // A share link names its instance too: opened with no key, through the proxy, it is found.
    const key = accounts.find((a) => instanceOf(a.keys.readWrite) === 1)!.keys.readWrite as string;
    const built = (await call('GET', '/api/v1/builds?limit=1', key)).json.data[0];
    const deliverable = (await call('GET', `/api/v1/builds/${built.id}`, key)).json.deliverables[0];
    const share = (await call('POST', `/api/v1/deliverables/${deliverable.id}/shares`, key, {})).json;
    expect(instanceOf(share.url)).toBe(1);
    expect((await call('GET', share.url, null)).status).toBe(200);
    expect(routed[0]).toBeGreaterThan(4);
    expect(routed[1]).toBeGreaterThan(4);
  });
});
