import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, call, mint, rig, startBuild } from './support/account-clock-rig.js';
import { T0 } from './support/harness.js';
import { mcpCall } from './oauth/support.js';

describe('an account with a clock of its own', () => {
  let r: Awaited<ReturnType<typeof rig>>;
  beforeAll(async () => {
    r = await rig();
  });
  afterAll(() => r.close());

  it('moves only that account: its builds complete, its rate-limit window resets, its OAuth token expires', async () => {
    const own = await account(r.base, { name: 'Own time', clock: { own: true } });
    const shared = await account(r.base, { name: 'Shared time' });
    expect(own.clock).toMatchObject({ own: true, nowMs: T0, frozen: true });
    expect(shared.clock).toBeUndefined();
    const ownBuild = await startBuild(r.base, own.keys.readWrite);
    const sharedBuild = await startBuild(r.base, shared.keys.readWrite);
    const ownToken = await mint(r.base, own.keys.readWrite);
    const sharedToken = await mint(r.base, shared.keys.readWrite);

    // Both use up their minute (three calls a key: the target and two GETs), then ask once too often.
    for (const [key, build] of [[own.keys.readWrite, ownBuild], [shared.keys.readWrite, sharedBuild]] as const) {
      for (let i = 0; i < 2; i++) expect((await call(r.base, 'GET', `/api/v1/builds/${build}`, { key })).status).toBe(200);
      expect((await call(r.base, 'GET', `/api/v1/builds/${build}`, { key })).status).toBe(429);
    }

    const advanced = await call(r.base, 'POST', `/_sim/accounts/${own.accountId}/clock/advance`, { body: { seconds: 7200 } });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toEqual({ accountId: own.accountId, own: true, now: new Date(T0 + 7_200_000).toISOString(), nowMs: T0 + 7_200_000, frozen: true });

    // The account with its own clock: a new window, its build done, the Date header on its time, its token expired.
    const ownNow = await call(r.base, 'GET', `/api/v1/builds/${ownBuild}`, { key: own.keys.readWrite });
    expect(ownNow.status).toBe(200);
    expect(ownNow.body.build.status).toBe('completed');
    expect(ownNow.headers['x-ratelimit-remaining']).toBe('2');
    expect(ownNow.headers.date).toBe(new Date(T0 + 7_200_000).toUTCString());
    const expired = await mcpCall(r.base, ownToken);
    expect(expired.status).toBe(401);
    expect(await expired.text()).toContain('expired');

    // The other account: still limited, its build still running, its token good, its time the simulator's.
    expect((await call(r.base, 'GET', `/api/v1/builds/${sharedBuild}`, { key: shared.keys.readWrite })).status).toBe(429);
    const sharedNow = await call(r.base, 'GET', `/api/v1/builds/${sharedBuild}`, { key: shared.keys.readOnly });
    expect(sharedNow.status).toBe(200);
    expect(sharedNow.body.build.status).not.toBe('completed');
    expect(sharedNow.headers.date).toBe(new Date(T0).toUTCString());
    expect((await mcpCall(r.base, sharedToken)).status).toBe(200);
    expect((await call(r.base, 'GET', '/_sim/clock')).body).toEqual({ now: new Date(T0).toISOString(), nowMs: T0, frozen: true });

    // The journal stamps each account's calls on its own time.
    const journal = await call(r.base, 'GET', `/_sim/journal?accountId=${own.accountId}&limit=1`);
    expect(journal.body.data[0].at).toBe(new Date(T0 + 7_200_000).toISOString());
  });

  it('is given, frozen, resumed and dropped through the control API; bad instants are refused', async () => {
    const made = await account(r.base, { name: 'Later' });
    const path = `/_sim/accounts/${made.accountId}/clock`;
    expect((await call(r.base, 'GET', path)).body).toMatchObject({ own: false, nowMs: T0, frozen: true });
    // Advancing needs a clock of its own: the simulator's is moved under /_sim/clock.
    const refused = await call(r.base, 'POST', `${path}/advance`, { body: { ms: 1 } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');

    const frozen = await call(r.base, 'POST', path, { body: { frozenAt: '2030-01-01T00:00:00.000Z' } });
    expect(frozen.body).toMatchObject({ own: true, nowMs: Date.parse('2030-01-01T00:00:00.000Z'), frozen: true });
    const resumed = await call(r.base, 'POST', `${path}/resume`, { body: {} });
    expect(resumed.body.frozen).toBe(false);
    expect(resumed.body.nowMs).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:00:00.000Z'));
    expect((await call(r.base, 'POST', `${path}/freeze`, { body: {} })).body.frozen).toBe(true);
    const offset = await call(r.base, 'POST', path, { body: { offsetMs: -86_400_000 } });
    expect(offset.body).toMatchObject({ own: true, frozen: false });
    expect(Math.abs(offset.body.nowMs - (Date.now() - 86_400_000))).toBeLessThan(60_000);

    // As the simulator's clock refuses them: nothing past 9999, and nothing moves.
    const tooFar = await call(r.base, 'POST', path, { body: { offsetMs: 253_402_300_799_999 } });
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.details.fields[0].path).toBe('body.offsetMs');
    expect((await call(r.base, 'POST', path, { body: { frozenAt: 'tomorrow' } })).status).toBe(400);
    expect((await call(r.base, 'POST', path, { body: { own: true, offsetMs: 1 } })).status).toBe(400);
    expect((await call(r.base, 'POST', '/_sim/accounts', { body: { clock: { frozenAt: '1969-12-31T23:59:59.000Z' } } })).status).toBe(400);
    expect((await call(r.base, 'GET', path)).body.frozen).toBe(false);
    expect((await call(r.base, 'POST', `${path}/advance`, { body: { ms: 253_402_300_799_999 } })).status).toBe(400);

    const dropped = await call(r.base, 'DELETE', path);
    expect(dropped.body).toEqual({ accountId: made.accountId, own: false, now: new Date(T0).toISOString(), nowMs: T0, frozen: true });
    expect((await call(r.base, 'GET', '/_sim/accounts/00000000-0000-4000-8000-000000000000/clock')).status).toBe(404);

    const listed = await call(r.base, 'GET', '/_sim/accounts?limit=500');
    expect(listed.body.data.find((a: { accountId: string }) => a.accountId === made.accountId).clock).toBeUndefined();
    expect((await call(r.base, 'GET', '/_sim')).body.accountClocks).toBe(true);
  });
});

describe('account clocks in a saved simulation', () => {
  it('are restored as they were: a frozen one where it stood, a running one gone on with real time', async () => {
    const first = await rig();
    const second = await rig();
    try {
      const frozen = await account(first.base, { clock: { frozenAt: '2031-05-06T07:08:09.000Z' } });
      const running = await account(first.base, { clock: { offsetMs: 3_600_000 } });
      const plain = await account(first.base, {});
      const build = await startBuild(first.base, frozen.keys.readWrite);
      const snapshot = await call(first.base, 'GET', '/_sim/snapshot');
      expect((await call(second.base, 'POST', '/_sim/restore', { body: snapshot.body })).status).toBe(200);

      expect((await call(second.base, 'GET', `/_sim/accounts/${frozen.accountId}/clock`)).body).toEqual({
        accountId: frozen.accountId,
        own: true,
        now: '2031-05-06T07:08:09.000Z',
        nowMs: Date.parse('2031-05-06T07:08:09.000Z'),
        frozen: true,
      });
      const runningNow = (await call(second.base, 'GET', `/_sim/accounts/${running.accountId}/clock`)).body;
      expect(runningNow).toMatchObject({ own: true, frozen: false });
      expect(Math.abs(runningNow.nowMs - (Date.now() + 3_600_000))).toBeLessThan(60_000);
      expect((await call(second.base, 'GET', `/_sim/accounts/${plain.accountId}/clock`)).body.own).toBe(false);
      // The build goes by its account's restored time: created at that instant, not finished.
      const restoredBuild = await call(second.base, 'GET', `/api/v1/builds/${build}`, { key: frozen.keys.readWrite });
      expect(restoredBuild.body.build.createdAt).toBe('2031-05-06T07:08:09.000Z');
      expect(restoredBuild.body.build.status).not.toBe('completed');

      // A reset goes back to the seeded start, where no account has a clock of its own.
      await call(second.base, 'POST', '/_sim/reset', { body: {} });
      expect((await call(second.base, 'GET', `/_sim/accounts/${frozen.accountId}/clock`)).status).toBe(404);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
