import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FAULT_RULES, MAX_FAULT_RULES_PER_ACCOUNT } from '../../src/observe/faults.js';
import { serve, type Served } from './support.js';

const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));

const control = { key: null } as const;
const latency = (accountId?: string) => ({ ...(accountId ? { accountId } : {}), path: '/api/v1/tokens', latencyMs: 1 });

describe('the fault-rule list', () => {
  it(`holds ${MAX_FAULT_RULES_PER_ACCOUNT} live rules an account; one more is 409 CONFLICT, and room comes back as rules go`, async () => {
    const s = await serve();
    running.push(s);
    const [me, other] = [await s.account(), await s.account()];
    const ids: string[] = [];
    for (let i = 0; i < MAX_FAULT_RULES_PER_ACCOUNT; i++) {
      const added = await s.call('POST', '/_sim/faults', { ...control, body: latency(me.id) });
      expect(added.status).toBe(201);
      ids.push(added.json.id);
    }
    const full = await s.call('POST', '/_sim/faults', { ...control, body: latency(me.id) });
    expect(full.status).toBe(409);
    expect(full.json).toMatchObject({ code: 'CONFLICT', details: { limit: MAX_FAULT_RULES_PER_ACCOUNT, accountId: me.id } });
    expect(full.json.error).toMatch(/full/);

    // Another account's list is its own.
    expect((await s.call('POST', '/_sim/faults', { ...control, body: latency(other.id) })).status).toBe(201);
    // Deleting one, or one running out, makes room.
    expect((await s.call('DELETE', `/_sim/faults/${ids[0]}`, control)).status).toBe(204);
    expect((await s.call('POST', '/_sim/faults', { ...control, body: { ...latency(me.id), times: 1 } })).status).toBe(201);
    expect((await s.call('POST', '/_sim/faults', { ...control, body: latency(me.id) })).status).toBe(409);
    expect((await s.call('GET', '/api/v1/tokens/balance', { key: me.key })).status).toBe(200); // the oldest live rule hits: not the one-off
    expect((await s.call('GET', `/_sim/faults?accountId=${me.id}`, control)).json.data).toHaveLength(MAX_FAULT_RULES_PER_ACCOUNT);
    // The one-off has not hit, so the list is still full; clearing the account's rules empties it.
    await s.call('DELETE', `/_sim/faults?accountId=${me.id}`, control);
    expect((await s.call('POST', '/_sim/faults', { ...control, body: latency(me.id) })).status).toBe(201);
  });

  it(`holds ${MAX_FAULT_RULES} rules in all, and still tries an account's rules and the shared ones oldest first`, async () => {
    const s = await serve();
    running.push(s);
    const accounts = [];
    for (let a = 0; a < MAX_FAULT_RULES / MAX_FAULT_RULES_PER_ACCOUNT; a++) accounts.push(await s.account());
    const add = (body: unknown) => s.call('POST', '/_sim/faults', { ...control, body });
    // The first account's first rule is older than the shared one; its second, younger.
    const first = accounts[0]!;
    const older = await add({ accountId: first.id, path: '/api/v1/tokens', response: { status: 500 }, times: 1 });
    const shared = await add({ path: '/api/v1/tokens', response: { status: 503 }, times: 1 });
    expect(shared.status).toBe(201);
    for (const [i, account] of accounts.entries()) {
      for (let r = i === 0 ? 1 : 0; r < MAX_FAULT_RULES_PER_ACCOUNT - (i === 1 ? 1 : 0); r++) expect((await add(latency(account.id))).status).toBe(201);
    }
    const full = await add(latency());
    expect(full.status).toBe(409);
    expect(full.json.details).toEqual({ limit: MAX_FAULT_RULES });

    const hit = async () => (await s.call('GET', '/api/v1/tokens/balance', { key: first.key })).json.code;
    expect(await hit()).toBe('INTERNAL_ERROR'); // its own, older rule first
    expect(await hit()).toBe('SERVICE_UNAVAILABLE'); // then the shared one
    expect(older.json.id).not.toBe(shared.json.id);
    // Both ran out: room for two again.
    expect((await add(latency())).status).toBe(201);
    expect((await add(latency(first.id))).status).toBe(201);
    expect((await add(latency(first.id))).status).toBe(409);
  }, 60_000);
});
