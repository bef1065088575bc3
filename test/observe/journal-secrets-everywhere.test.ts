import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createNodeHandler } from '../../src/adapters/node-handler.js';
import { requestLogger } from '../../src/cli/request-log.js';
import { entryEvent } from '../../src/observe/journal.js';
import { createSimulator } from '../../src/simulator.js';
import { assertContract } from '../support/contract.js';

/**
 * The journal keeps exchanges as they came and redacts them when they are read: whatever reads
 * them (the JSON journal, its HAR export, a live feed, a feed that catches up), and whatever
 * else the server writes (its request log, a snapshot), no secret a client sent or got appears.
 */
describe('secrets the journal holds unredacted until read', () => {
  it('appear in no read, HAR export, live or caught-up feed, snapshot or request log', async () => {
    const simulator = createSimulator({ speed: 'instant', onFault: () => {} });
    const logged: string[] = [];
    const server = createServer(createNodeHandler(simulator, { onRequest: await requestLogger('text', (line) => logged.push(line)) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const call = async (method: string, path: string, key: string | null, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      assertContract({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
      return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
    };
    const live: string[] = [];
    const stop = simulator.internal.journal.subscribe((entry) => live.push(entryEvent(entry)));
    try {
      const me = simulator.keys.readWrite;
      const key = (await call('POST', '/api/v1/keys', me, { name: 'ci', scopes: ['svc:read'] })).json.value as string;
      const tokens = (await call('POST', '/_sim/oauth/tokens', null, { apiKey: me })).json;
      const targetId = (await call('POST', '/api/v1/targets', me, { name: 'S', slug: 's' }, { 'idempotency-key': `idem-${tokens.access_token}` })).json.id;
      const buildId = (await call('POST', '/api/v1/builds', me, { targetId, kind: 'blog', objective: 'Secrets' })).json.buildId;
      const deliverableId = (await call('GET', `/api/v1/builds/${buildId}`, key)).json.deliverables[0].id;
      const share = (await call('POST', `/api/v1/deliverables/${deliverableId}/shares`, me, {})).json;
      await call('GET', share.url, null);
      await call('GET', `/api/v1/tokens/balance?api_key=${me}`, null);
      const secrets = [me, key, tokens.access_token, tokens.refresh_token, share.token] as string[];
      expect(live.length).toBeGreaterThan(5); // the feed listened while the calls were made

      const reads = {
        journal: (await call('GET', '/_sim/journal?limit=1000', null)).text,
        har: (await call('GET', '/_sim/journal?limit=1000&format=har', null)).text,
        live: live.join(''),
        caughtUp: simulator.internal.journal.after(0, {}).map(entryEvent).join(''),
        log: logged.join(''),
      };
      for (const [where, text] of Object.entries(reads)) {
        for (const secret of secrets) expect(text, `${where} holds ${secret.slice(0, 12)}…`).not.toContain(secret);
      }
      expect(reads.har).toContain(`Bearer svc_live_…${key.slice(-4)}`); // hints stay, to tell keys apart
      // A snapshot keeps share tokens by design (a restored share still opens), and keys only by digest.
      const snapshot = (await call('GET', '/_sim/snapshot', null)).text;
      for (const secret of [me, key, tokens.access_token, tokens.refresh_token]) expect(snapshot).not.toContain(secret);
    } finally {
      stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('holds none once its entries are gone: a cleared journal lets the raw exchanges go', () => {
    const simulator = createSimulator({ speed: 'instant' });
    const key = simulator.keys.readWrite;
    simulator.handle({ method: 'GET', url: `/api/v1/targets?api_key=${key}`, headers: { authorization: `Bearer ${key}` } });
    const journal = simulator.internal.journal;
    const ring = (journal as unknown as { ring: Array<Record<string, unknown> | undefined> }).ring;
    const held = () => ring.some((slot) => slot !== undefined && JSON.stringify(slot).includes(key));
    expect(held()).toBe(true); // kept as it came: nothing was redacted on the request path
    journal.clear();
    expect(held()).toBe(false);
    expect(journal.query({ limit: 10 })).toEqual([]);
  });
});
