import { describe, expect, it } from 'vitest';
import { harness, type Harness } from '../support/harness.js';

/**
 * A restore (POST /_sim/restore, or a state file at start) applies the rules the API applies:
 * ids in their documented format, references that resolve, OAuth clients as registration
 * accepts them, addresses as the contract states them. A snapshot that breaks one is a 400
 * naming the path of the fault, and changes nothing.
 */
const control = { key: null } as const;

/** An account holding one of each kind of record that names another. */
async function populate(h: Harness) {
  const targetId = await h.target(undefined, 'kept-brand');
  const item = await h.post(`/api/v1/targets/${targetId}/library`, { type: 'glossary_term', name: 'Crema', content: 'The foam on an espresso.' });
  const buildId = await h.build({ targetId, libraryItemIds: [item.body.id] }, undefined, 'op-1');
  h.advance(3_600_000);
  const build = (await h.get(`/api/v1/builds/${buildId}`)).body;
  const deliverableId = build.deliverables[0].id as string;
  await h.post(`/api/v1/deliverables/${deliverableId}/shares`, {});
  const voice = (await h.get('/api/v1/audio/voices')).body.data[0].id as string;
  expect((await h.post(`/api/v1/deliverables/${deliverableId}/audio`, { voice })).status).toBe(201);
  await h.post('/api/v1/tokens/purchases', { bundleId: 'starter' }, { headers: { 'Idempotency-Key': 'buy-1' } });
  await h.post('/api/v1/keys/' + (await h.get('/api/v1/keys')).body.data[0].id + '/rotate', {});
  await h.post('/_sim/oauth/tokens', { apiKey: h.keys.readOnly }, control);
  return { targetId };
}

async function snapshotOf(h: Harness) {
  return (await h.get('/_sim/snapshot', control)).body;
}

/** A populated simulator's snapshot, made once: each case changes its own copy. */
let populated: Promise<unknown> | undefined;
function populatedSnapshot(): Promise<any> {
  populated ??= (async () => {
    const source = harness({ speed: 'instant' });
    await populate(source);
    return snapshotOf(source);
  })();
  return populated.then((snapshot) => structuredClone(snapshot));
}

/** Restores a changed copy of a populated simulator's snapshot into another, which must refuse it and stay as it was. */
async function refused(mutate: (snapshot: any) => void) {
  const snapshot = await populatedSnapshot();
  mutate(snapshot);
  const h = harness();
  await h.target(undefined, 'before');
  const { savedAt: _s, streams: { correlationIds: _c, ...before }, ...rest } = await snapshotOf(h);
  const res = await h.post('/_sim/restore', snapshot, control);
  const { savedAt: _s2, streams: { correlationIds: _c2, ...after }, ...restAfter } = await snapshotOf(h);
  expect({ restAfter, after }).toEqual({ restAfter: rest, after: before });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ error: expect.any(String), code: 'VALIDATION_ERROR' });
  return res.body.details.fields as Array<{ path: string; message: string }>;
}

const client = (redirectUris: string[]) => ({ clientId: `client_${'A'.repeat(43)}`, clientName: 'Hostile', redirectUris, issuedAt: 0 });

describe('a restore', () => {
  it('takes back a snapshot of every kind of linked record whole', async () => {
    const snapshot = await populatedSnapshot();
    const h = harness();
    expect((await h.post('/_sim/restore', snapshot, control)).status).toBe(200);
    expect((await snapshotOf(h)).accounts).toEqual(snapshot.accounts);
  });

  it('refuses OAuth clients that registration would refuse: a javascript: or non-URL redirect URI, an untrimmed name', async () => {
    expect(await refused((s) => s.oauth.clients.push(client(['javascript:alert(document.cookie)'])))).toEqual([
      { path: 'body.oauth.clients[1]', message: expect.stringMatching(/would be refused by registration: redirect URI "javascript:alert\(document\.cookie\)" must be https/) },
    ]);
    expect((await refused((s) => s.oauth.clients.push(client(['not a url']))))[0]).toMatchObject({ path: 'body.oauth.clients[1]', message: expect.stringMatching(/is not an absolute URL/) });
    expect((await refused((s) => s.oauth.clients.push(client([]))))[0]?.message).toMatch(/one to 10 redirect URIs/);
    expect((await refused((s) => s.oauth.clients.push({ ...client(['https://app.example/cb']), clientName: ' padded ' })))[0]?.message).toMatch(/name trimmed/);
    expect((await refused((s) => s.oauth.clients.push({ ...client(['https://app.example/cb']), clientId: 'my-client' })))[0]?.path).toBe('body.oauth.clients[1].clientId');
  });

  it('refuses ids that are not in their documented format, such as an account id made to climb out of its path', async () => {
    const fields = await refused((s) => (s.accounts[0].id = '../../_sim/reset#'));
    expect(fields[0]).toEqual({ path: 'body.accounts[0].id', message: expect.stringMatching(/uuid/i) });
    expect((await refused((s) => (s.accounts[0].targets.entries[0][1].id = 'T1')))[0]?.path).toBe('body.accounts[0].targets.entries[0][1].id');
    expect((await refused((s) => (s.accounts[0].shares.entries[0][1].token = '../../x'.padEnd(48, 'a'))))[0]?.path).toBe('body.accounts[0].shares.entries[0][1].token');
    expect((await refused((s) => (s.oauth.grants[0].id = 'grant_1')))[0]?.path).toBe('body.oauth.grants[0].id');
  });

  it('refuses references that do not resolve: a slug of no target, a library of no target, a share of no deliverable, a token of no grant', async () => {
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect(await refused((s) => s.accounts[0].slugs.push(['held-for-good', ghost]))).toEqual([{ path: 'body.accounts[0].slugs[1]', message: 'must pair a slug with the target that has it' }]);
    expect((await refused((s) => (s.accounts[0].slugs = [])))[0]).toEqual({ path: 'body.accounts[0].targets.entries[0][1].slug', message: 'is missing from slugs' });
    expect((await refused((s) => (s.accounts[0].library.entries[0][1].targetId = ghost)))[0]?.path).toBe('body.accounts[0].library.entries[0][1].targetId');
    expect((await refused((s) => (s.accounts[0].shares.entries[0][1].deliverableId = ghost)))[0]?.path).toBe('body.accounts[0].shares.entries[0][1].deliverableId');
    expect((await refused((s) => (s.accounts[0].audio.entries[0][1].buildId = ghost)))[0]?.path).toBe('body.accounts[0].audio.entries[0][1].deliverableId');
    expect((await refused((s) => (s.accounts[0].deliverables[0][1].pageIndex = 5)))[0]?.path).toBe('body.accounts[0].deliverables[0]');
    expect((await refused((s) => (s.accounts[0].idempotency[0][1] = ghost)))[0]?.path).toBe('body.accounts[0].idempotency[0][1]');
    expect((await refused((s) => (s.accounts[0].keys.entries[0][1].replacedById = ghost)))[0]?.path).toMatch(/^body\.accounts\[0\]\.keys\.entries\[\d\]\[1\]\.replacedById$/);
    expect((await refused((s) => (s.accounts[0].builds.entries[0][1].libraryItems = [])))[0]?.path).toBe('body.accounts[0].builds.entries[0][1].libraryItems');
    expect((await refused((s) => (s.oauth.refreshTokens[0][1].grantId = `grant_${'B'.repeat(43)}`)))[0]?.path).toBe('body.oauth.refreshTokens[0][1].grantId');
    expect((await refused((s) => (s.oauth.grants[0].clientId = `client_${'C'.repeat(43)}`)))[0]?.path).toBe('body.oauth.grants[0].clientId');
    expect((await refused((s) => (s.oauth.grants[0].keyId = ghost)))[0]?.path).toBe('body.oauth.grants[0].keyId');
    // A sign-in waiting for approval would send the browser to its redirect URI: only one its client registered.
    const pending = { id: 'P'.repeat(43), csrf: 'c', clientId: 'content-sim-demo', state: null, challenge: 'x', scopes: ['svc:read'], resource: 'http://localhost/mcp', expiresAt: 4_102_444_800_000 };
    expect((await refused((s) => s.oauth.pending.push({ ...pending, redirectUri: 'javascript:alert(1)' })))[0]?.path).toBe('body.oauth.pending[0].redirectUri');
  });

  it('is never refused for what the simulator saves: records naming one its tables let go since are left out of the save', async () => {
    const h = harness();
    await h.post('/_sim/oauth/tokens', { apiKey: h.keys.readWrite }, control);
    const oauth = h.simulator.internal.oauth.store;
    oauth.grants.clear(); // as the grants' cap lets the least recently used go, before the tokens' sweep
    const snapshot = await snapshotOf(h);
    expect(snapshot.oauth).toMatchObject({ grants: [], accessTokens: [], refreshTokens: [] });
    expect((await harness().post('/_sim/restore', snapshot, control)).status).toBe(200);
  });

  it('refuses a media contact the API would refuse, by the contract\'s own pattern', async () => {
    const contact = { name: 'Press', email: `${'a'.repeat(75)}@acme.example` };
    const fields = await refused((s) => (s.accounts[0].targets.entries[0][1].brandKit.pressRelease.mediaContact = contact));
    expect(fields[0]?.path).toBe('body.accounts[0].targets.entries[0][1].brandKit.pressRelease.mediaContact.email');
  });
});
