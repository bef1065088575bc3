import { describe, expect, it } from 'vitest';
import { harness, T0, type Harness } from '../support/harness.js';

const control = { key: null } as const;

/** An account with a bit of everything: a created key, targets, builds (one idempotent), a share, a chat, a purchase. */
async function populate(h: Harness) {
  const targetId = await h.target(undefined, 'saved-brand');
  const created = await h.post('/api/v1/keys', { name: 'ci', scopes: ['svc:read', 'svc:write'] });
  const buildId = await h.build({ targetId, objective: 'Dial in espresso' }, created.body.value, 'op-1');
  for (let i = 0; i < 3; i++) await h.build({ targetId, objective: `Grinder ${i}` });
  h.advance(10 * 60_000);
  const build = await h.get(`/api/v1/builds/${buildId}`);
  const share = await h.post(`/api/v1/deliverables/${build.body.deliverables[0].id}/shares`, {});
  const chat = await h.post('/api/v1/chats', { targetId });
  await h.post('/api/v1/tokens/purchases', { bundleId: 'starter' }, { headers: { 'Idempotency-Key': 'buy-1' } });
  const oauth = await h.post('/_sim/oauth/tokens', { apiKey: h.keys.readWrite }, control);
  return { targetId, key: created.body.value as string, buildId, build: build.body, shareUrl: share.body.url as string, chatId: chat.body.id as string, refresh: oauth.body.refresh_token as string };
}

/** What a client can read of the account: everything restored must answer the same. */
async function view(h: Harness, key = h.keys.readWrite) {
  const get = async (url: string) => (await h.get(url, { key })).body;
  return {
    balance: await get('/api/v1/tokens/balance'),
    transactions: await get('/api/v1/tokens/transactions'),
    targets: await get('/api/v1/targets'),
    builds: await get('/api/v1/builds?limit=2'),
    keys: await get('/api/v1/keys'),
    chats: await get('/api/v1/chats'),
  };
}

describe('a snapshot restored into a fresh simulator', () => {
  it('goes on exactly where the saved one was: same answers, keys, links, replays, cursors, and no id issued twice', async () => {
    const a = harness({ speed: 'instant' });
    const saved = await populate(a);
    const snapshot = await a.get('/_sim/snapshot', control);
    expect(snapshot.status).toBe(200);
    expect(snapshot.text).not.toContain(saved.key); // keys only by digest

    const b = harness({ speed: 'instant', frozenAt: T0 + 86_400_000 });
    const restored = await b.post('/_sim/restore', snapshot.body, control);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ accounts: a.simulator.internal.store.accounts.size, builds: 4, clock: { nowMs: T0 + 10 * 60_000, frozen: true } });

    expect(await view(b)).toEqual(await view(a));
    expect((await b.get(`/api/v1/builds/${saved.buildId}`, { key: saved.key })).body).toEqual(saved.build);
    expect((await b.get(saved.shareUrl, { key: null })).status).toBe(200);
    expect((await b.get(`/api/v1/chats/${saved.chatId}`)).status).toBe(200);

    // An Idempotency-Key used before the restart still replays the old build, charging nothing.
    const replay = await b.post('/api/v1/builds', { targetId: saved.targetId, kind: 'blog', objective: 'Dial in espresso' }, { headers: { 'Idempotency-Key': 'op-1' } });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ buildId: saved.buildId, idempotent: true });

    // A cursor handed out before the restart reads the same next page.
    const page1 = (await a.get('/api/v1/builds?limit=2')).body;
    expect((await b.get(`/api/v1/builds?limit=2&cursor=${page1.nextCursor}`)).body).toEqual((await a.get(`/api/v1/builds?limit=2&cursor=${page1.nextCursor}`)).body);

    // The OAuth grant survives: its refresh token still works.
    // (The OAuth endpoints answer in RFC 6749's shape, outside the contract documents: called in-process.)
    const form = new URLSearchParams({ grant_type: 'refresh_token', client_id: 'content-sim-demo', refresh_token: saved.refresh });
    const refreshed = b.simulator.handle({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new TextEncoder().encode(form.toString()) });
    expect(refreshed.status).toBe(200);
    expect(JSON.parse(refreshed.body as string)).toMatchObject({ token_type: 'Bearer', access_token: expect.stringMatching(/^sim_at_/) });

    // The id streams go on: the next ids are new (and the ones the saved simulator would have issued).
    const existing = new Set(snapshot.text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g));
    const nextB = await b.target(undefined, 'after-restart');
    const nextA = await a.target(undefined, 'after-restart');
    expect(existing.has(nextB)).toBe(false);
    expect(nextB).toBe(nextA);
    const buildB = await b.build({ targetId: nextB });
    expect(existing.has(buildB)).toBe(false);
  });

  it('keeps a running clock running, from the saved instant plus the real time since', async () => {
    let real = T0;
    const a = harness({ frozenAt: undefined, realTime: () => real });
    a.advance(5_000);
    const snapshot = (await a.get('/_sim/snapshot', { key: null })).body;
    real += 60_000;
    const b = harness({ frozenAt: undefined, realTime: () => real + 999_000 });
    snapshot.savedAt = real - 60_000 + 999_000; // saved on b's real-time scale, a minute ago
    const restored = await b.post('/_sim/restore', snapshot, control);
    expect(restored.body.clock).toEqual({ now: new Date(T0 + 65_000).toISOString(), nowMs: T0 + 65_000, frozen: false });
  });
});

/** The saved state, less what every request moves (the correlation-id stream) and the real time of the save. */
async function state(h: Harness) {
  const { savedAt: _savedAt, streams: { correlationIds: _c, ...streams }, ...rest } = (await h.get('/_sim/snapshot', control)).body;
  return { ...rest, streams };
}

describe('a snapshot that cannot be restored', () => {
  async function attempt(mutate: (snapshot: any) => void) {
    const source = harness({ speed: 'instant' });
    await populate(source);
    const snapshot = (await source.get('/_sim/snapshot', control)).body;
    mutate(snapshot);
    const h = harness();
    await h.target(undefined, 'before');
    const before = await state(h);
    const res = await h.post('/_sim/restore', snapshot, control);
    // Nothing changed: the simulator holds what it held before the attempt.
    expect(await state(h)).toEqual(before);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    return res.body.details.fields as Array<{ path: string; message: string }>;
  }

  it('is a 400 naming the field at fault, and changes nothing', async () => {
    expect(await attempt((s) => (s.version = 2))).toEqual([{ path: 'body.version', message: expect.stringMatching(/reads version 1/) }]);
    expect((await attempt((s) => (s.seed = 'other')))[0]?.path).toBe('body.seed');
    expect((await attempt((s) => (s.accounts[0].builds.entries[0][1].kind = 'poem')))[0]?.path).toBe('body.accounts[0].builds.entries[0][1].kind');
    expect((await attempt((s) => (s.accounts[0].balance = 'lots')))[0]?.path).toMatch(/^body\.accounts\[0\]\.balance/);
    expect((await attempt((s) => (s.clock.now = -1)))[0]?.path).toBe('body.clock.now');
  });

  it('refuses records the indexes could not hold: a key in two places, ids twice, positions out of order', async () => {
    const twice = await attempt((s) => {
      const keys = s.accounts[0].keys;
      keys.entries.push([keys.nextSeq++, { ...keys.entries[0][1], id: '00000000-0000-4000-8000-000000000000' }]);
    });
    expect(twice[0]).toMatchObject({ path: expect.stringMatching(/^body\.accounts\[0\]\.keys\.entries\[\d+\]\[1\]$/), message: expect.stringMatching(/digest/) });
    expect((await attempt((s) => s.accounts[0].keys.entries.push([s.accounts[0].keys.nextSeq, s.accounts[0].keys.entries[0][1]])))[0]?.message).toMatch(/below nextSeq/);
    expect((await attempt((s) => s.accounts[0].builds.entries.reverse()))[0]?.message).toMatch(/ascend/);
    expect((await attempt((s) => s.accounts.push(s.accounts[0])))[0]?.message).toMatch(/account twice/);
  });
});
