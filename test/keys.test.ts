import { describe, expect, it } from 'vitest';
import { assertContract } from './support/contract.js';
import { harness, type Harness } from './support/harness.js';

const KEY_VALUE = /^svc_live_[0-9a-f]{40}$/;

async function createKey(h: Harness, body: unknown, key = h.keys.readWrite) {
  return h.post('/api/v1/keys', body, { key });
}

async function newKey(h: Harness, name: string, scopes: string[], key = h.keys.readWrite) {
  const res = await createKey(h, { name, scopes }, key);
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return res.body as { id: string; value: string; hint: string; name: string; scopes: string[] };
}

async function freshAccount(h: Harness) {
  return (await h.post('/_sim/accounts', { balance: 10 }, { key: null })).body.keys as Harness['keys'];
}

describe('API keys: listing and reading (spec, API key; Authentication 3)', () => {
  it('lists the seeded keys newest first with hints, the revoked one marked, never a value or hash', async () => {
    const h = harness();
    const res = await h.get('/api/v1/keys');
    expect(res.status).toBe(200);
    expect(res.body.data.map((k: { name: string }) => k.name)).toEqual(['Revoked', 'Write only', 'Read only', 'Read and write']);
    expect(res.body.nextCursor).toBeNull();
    const [revoked, writeOnly] = res.body.data;
    expect(revoked).toMatchObject({ status: 'revoked', hint: `svc_live_…${h.keys.revoked.slice(-4)}` });
    expect(revoked.revokedAt).not.toBeNull();
    expect(writeOnly).toMatchObject({ status: 'active', scopes: ['svc:write'], revokedAt: null, rotatedFromId: null });
    for (const value of Object.values(h.keys)) expect(res.text).not.toContain(value.slice(9));
    expect(res.text).not.toMatch(/[0-9a-f]{64}/); // no SHA-256 digest either
  });

  it('filters by status and pages with limit and cursor', async () => {
    const h = harness();
    const active = (await h.get('/api/v1/keys?status=active')).body.data;
    expect(active).toHaveLength(3);
    expect(active.every((k: { status: string }) => k.status === 'active')).toBe(true);
    expect((await h.get('/api/v1/keys?status=revoked')).body.data.map((k: { name: string }) => k.name)).toEqual(['Revoked']);
    const first = await h.get('/api/v1/keys?limit=3');
    expect(first.body.data).toHaveLength(3);
    const second = await h.get(`/api/v1/keys?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((k: { name: string }) => k.name)).toEqual(['Read and write']);
    expect(second.body.nextCursor).toBeNull();
  });

  it('gets one key by id and records when it was last used', async () => {
    const h = harness();
    const created = await newKey(h, 'CI', ['svc:read']);
    expect((await h.get(`/api/v1/keys/${created.id}`)).body.lastUsedAt).toBeNull();
    h.advance(5_000);
    await h.get('/api/v1/tokens/balance', { key: created.value });
    const res = await h.get(`/api/v1/keys/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'CI', scopes: ['svc:read'], status: 'active' });
    expect(res.body.lastUsedAt).toBe('2026-03-02T09:00:05.000Z');
    expect(res.body).not.toHaveProperty('value');
  });
});

describe('API keys: creation', () => {
  it('201 with the value once; the key works; later responses show only its hint', async () => {
    const h = harness();
    const res = await createKey(h, { name: '  Deploy bot ', scopes: ['svc:write', 'svc:read'] });
    expect(res.status).toBe(201);
    const { value, id } = res.body;
    expect(value).toMatch(KEY_VALUE);
    expect(res.body).toMatchObject({ name: 'Deploy bot', scopes: ['svc:read', 'svc:write'], hint: `svc_live_…${value.slice(-4)}`, status: 'active' });
    expect(res.headers.location).toBe(`/api/v1/keys/${id}`);
    expect((await h.get('/api/v1/tokens/balance', { key: value })).status).toBe(200);
    for (const later of [await h.get('/api/v1/keys'), await h.get(`/api/v1/keys/${id}`), await h.call('DELETE', `/api/v1/keys/${id}`)]) {
      expect(later.text).not.toContain(value.slice(9));
    }
  });

  it('keeps only a hash: neither the store nor the request log holds the value', async () => {
    const h = harness();
    const created = await newKey(h, 'Hashed', ['svc:read']);
    const account = [...h.simulator.internal.store.accounts.values()].find((a) => a.keys.get(created.id));
    expect(JSON.stringify([...account!.keys.values()])).not.toContain(created.value.slice(9));
    const response = h.simulator.handle({ method: 'GET', url: '/api/v1/tokens/balance', headers: { authorization: `Bearer ${created.value}` } });
    assertContract({ method: 'GET', url: '/api/v1/tokens/balance', status: response.status, headers: response.headers, body: response.body as string });
    expect(response.status).toBe(200);
    expect(response.log.keyHint).toBe(created.hint);
    expect(JSON.stringify(response.log)).not.toContain(created.value.slice(9));
  });

  it('keeps ids seeded but draws values from the cryptographic generator, unless secrets are deterministic', async () => {
    const a = await newKey(harness({ seed: 'alpha' }), 'k', ['svc:read']);
    const b = await newKey(harness({ seed: 'alpha' }), 'k', ['svc:read']);
    expect(a.id).toBe(b.id);
    expect(a.value).not.toBe(b.value);
    const c = await newKey(harness({ seed: 'alpha', deterministicSecrets: true }), 'k', ['svc:read']);
    const d = await newKey(harness({ seed: 'alpha', deterministicSecrets: true }), 'k', ['svc:read']);
    const e = await newKey(harness({ seed: 'beta', deterministicSecrets: true }), 'k', ['svc:read']);
    expect(c.value).toBe(d.value);
    expect(e.value).not.toBe(c.value);
  });

  it('gives a key exactly the scopes asked: a read-only key reads and cannot write', async () => {
    const h = harness();
    const reader = await newKey(h, 'Reader', ['svc:read']);
    expect((await h.get('/api/v1/builds', { key: reader.value })).status).toBe(200);
    const write = await h.post('/api/v1/targets', { name: 'X', slug: 'x' }, { key: reader.value });
    expect(write.status).toBe(403);
    expect(write.body.details).toEqual({ requiredScope: 'svc:write', grantedScopes: ['svc:read'] });
  });

  it('403 SCOPE_REQUIRED naming svc:read when a write-only key asks for a key with svc:read; nothing is created', async () => {
    const h = harness();
    for (const scopes of [['svc:read'], ['svc:read', 'svc:write']]) {
      const res = await createKey(h, { name: 'Escalate', scopes }, h.keys.writeOnly);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'SCOPE_REQUIRED', details: { requiredScope: 'svc:read', grantedScopes: ['svc:write'] } });
    }
    expect((await h.get('/api/v1/keys')).body.data).toHaveLength(4);
    // What it holds itself it may hand out.
    const writer = await newKey(h, 'Writer', ['svc:write'], h.keys.writeOnly);
    expect((await h.get('/api/v1/keys', { key: writer.value })).status).toBe(403);
  });

  it('403 SCOPE_REQUIRED naming svc:write when a read-only key creates a key', async () => {
    const h = harness();
    const res = await createKey(h, { name: 'Nope', scopes: ['svc:read'] }, h.keys.readOnly);
    expect(res.status).toBe(403);
    expect(res.body.details.requiredScope).toBe('svc:write');
  });

  it('holds at most 25 active keys; revoking one makes room', async () => {
    const h = harness();
    const created = [];
    for (let i = 0; i < 22; i++) created.push(await newKey(h, `k${i}`, ['svc:read'])); // + 3 active seeded keys = 25
    const refused = await createKey(h, { name: 'one too many', scopes: ['svc:read'] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', details: { activeKeys: 25, maxActiveKeys: 25 } });
    await h.call('DELETE', `/api/v1/keys/${created[0]!.id}`);
    expect((await createKey(h, { name: 'room again', scopes: ['svc:read'] })).status).toBe(201);
  });

  it.each([
    ['no name', { scopes: ['svc:read'] }, 'body.name'],
    ['no scopes', { name: 'x' }, 'body.scopes'],
    ['a blank name', { name: '   ', scopes: ['svc:read'] }, 'body.name'],
    ['a name of 101 characters', { name: 'n'.repeat(101), scopes: ['svc:read'] }, 'body.name'],
    ['a huge name', { name: 'n'.repeat(200_000), scopes: ['svc:read'] }, 'body.name'],
    ['a name that is a number', { name: 42, scopes: ['svc:read'] }, 'body.name'],
    ['scopes as a string', { name: 'x', scopes: 'svc:read' }, 'body.scopes'],
    ['empty scopes', { name: 'x', scopes: [] }, 'body.scopes'],
    ['a repeated scope', { name: 'x', scopes: ['svc:read', 'svc:read'] }, 'body.scopes'],
    ['an unknown scope', { name: 'x', scopes: ['svc:admin'] }, 'body.scopes[0]'],
    ['an unknown field', { name: 'x', scopes: ['svc:read'], expiresAt: '2030-01-01' }, 'body.expiresAt'],
    ['an array body', [], 'body'],
  ])('400 VALIDATION_ERROR for %s, and nothing is created', async (_, body, path) => {
    const h = harness();
    const res = await createKey(h, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect((await h.get('/api/v1/keys')).body.data).toHaveLength(4);
  });

  it('413 for a body over 1 MiB and 415 for a body that is not JSON', async () => {
    const h = harness();
    const big = await h.call('POST', '/api/v1/keys', { rawBody: JSON.stringify({ name: 'x'.repeat(1_100_000), scopes: ['svc:read'] }), headers: { 'Content-Type': 'application/json' } });
    expect(big.status).toBe(413);
    const text = await h.call('POST', '/api/v1/keys', { rawBody: 'name=x', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
  });
});

describe('API keys: rotation', () => {
  it('issues a new key with the same name and scopes and revokes the old one at once', async () => {
    const h = harness();
    const old = await newKey(h, 'Nightly export', ['svc:read']);
    h.advance(1_000);
    const res = await h.post(`/api/v1/keys/${old.id}/rotate`);
    expect(res.status).toBe(201);
    expect(res.body.value).toMatch(KEY_VALUE);
    expect(res.body.value).not.toBe(old.value);
    expect(res.body).toMatchObject({ name: 'Nightly export', scopes: ['svc:read'], rotatedFromId: old.id, status: 'active', replacedById: null });
    expect(res.headers.location).toBe(`/api/v1/keys/${res.body.id}`);

    const refused = await h.get('/api/v1/tokens/balance', { key: old.value });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'INVALID_API_KEY', details: { reason: 'revoked' } });
    expect((await h.get('/api/v1/tokens/balance', { key: res.body.value })).status).toBe(200);
    const oldRecord = (await h.get(`/api/v1/keys/${old.id}`)).body;
    expect(oldRecord).toMatchObject({ status: 'revoked', revokedAt: '2026-03-02T09:00:01.000Z', replacedById: res.body.id });
  });

  it('a key may rotate itself: the old value stops at once, the new one works', async () => {
    const h = harness();
    const self = await newKey(h, 'Self', ['svc:read', 'svc:write']);
    const rotated = await h.post(`/api/v1/keys/${self.id}/rotate`, undefined, { key: self.value });
    expect(rotated.status).toBe(201);
    expect((await h.get('/api/v1/keys', { key: self.value })).status).toBe(401);
    expect((await h.get('/api/v1/keys', { key: rotated.body.value })).status).toBe(200);
  });

  it('409 CONFLICT when rotating a revoked key', async () => {
    const h = harness();
    const old = await newKey(h, 'Old', ['svc:read']);
    await h.post(`/api/v1/keys/${old.id}/rotate`);
    const again = await h.post(`/api/v1/keys/${old.id}/rotate`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', details: { keyId: old.id } });
    expect((await h.get('/api/v1/keys')).body.data).toHaveLength(6);
  });

  it('403 SCOPE_REQUIRED when a write-only key rotates a key with svc:read; the key keeps working', async () => {
    const h = harness();
    const reader = await newKey(h, 'Reader', ['svc:read']);
    const res = await h.post(`/api/v1/keys/${reader.id}/rotate`, undefined, { key: h.keys.writeOnly });
    expect(res.status).toBe(403);
    expect(res.body.details.requiredScope).toBe('svc:read');
    expect((await h.get('/api/v1/tokens/balance', { key: reader.value })).status).toBe(200);
  });
});

describe('API keys: revocation', () => {
  it('takes effect at once and is idempotent: revoking again answers the same record', async () => {
    const h = harness();
    const key = await newKey(h, 'Temp', ['svc:read']);
    const res = await h.call('DELETE', `/api/v1/keys/${key.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: key.id, status: 'revoked', revokedAt: '2026-03-02T09:00:00.000Z' });
    const refused = await h.get('/api/v1/tokens/balance', { key: key.value });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('INVALID_API_KEY');
    h.advance(60_000);
    const again = await h.call('DELETE', `/api/v1/keys/${key.id}`);
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe('2026-03-02T09:00:00.000Z');
  });

  it('a key may revoke itself: the answer is 200, its next call 401', async () => {
    const h = harness();
    const self = await newKey(h, 'Self', ['svc:write']);
    const res = await h.call('DELETE', `/api/v1/keys/${self.id}`, { key: self.value });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('revoked');
    const next = await h.call('DELETE', `/api/v1/keys/${self.id}`, { key: self.value });
    expect(next.status).toBe(401);
    expect(next.body).toMatchObject({ code: 'INVALID_API_KEY', details: { reason: 'revoked' } });
  });

  it('a write-only key may revoke a key with more scopes (revoking grants nothing)', async () => {
    const h = harness();
    const res = await h.call('DELETE', `/api/v1/keys/${(await newKey(h, 'Full', ['svc:read', 'svc:write'])).id}`, { key: h.keys.writeOnly });
    expect(res.status).toBe(200);
  });
});

describe('API keys: ids that are not this account\'s', () => {
  it('404 for another account\'s key id on get, rotate and revoke, and that key keeps working', async () => {
    const h = harness();
    const other = await freshAccount(h);
    const theirs = await newKey(h, 'Theirs', ['svc:read'], other.readWrite);
    for (const res of [
      await h.get(`/api/v1/keys/${theirs.id}`),
      await h.post(`/api/v1/keys/${theirs.id}/rotate`),
      await h.call('DELETE', `/api/v1/keys/${theirs.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'API key', id: theirs.id } });
    }
    expect((await h.get('/api/v1/tokens/balance', { key: theirs.value })).status).toBe(200);
    expect((await h.get('/api/v1/keys')).text).not.toContain(theirs.id);
  });

  it('404 for an unknown UUID, 400 for an id that is not a UUID', async () => {
    const h = harness();
    expect((await h.get('/api/v1/keys/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    for (const res of [
      await h.get('/api/v1/keys/not-a-uuid'),
      await h.post(`/api/v1/keys/${'x'.repeat(5000)}/rotate`),
      await h.call('DELETE', `/api/v1/keys/${encodeURIComponent(h.keys.readWrite)}`),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.details.fields[0].path).toBe('path.keyId');
    }
    // The key value put in the path did not revoke anything.
    expect((await h.get('/api/v1/tokens/balance')).status).toBe(200);
  });
});

describe('API keys: the per-user limit counts every key together (spec, Limits)', () => {
  it('two keys created through the API and the seeded ones share 120 a minute', async () => {
    const h = harness();
    const first = await newKey(h, 'Worker 1', ['svc:read']);
    const second = await newKey(h, 'Worker 2', ['svc:read']);
    // 2 creations so far; 60 + 58 more brings the user to 120.
    for (let i = 0; i < 60; i++) expect((await h.get('/api/v1/tokens/balance', { key: first.value })).status).toBe(200);
    for (let i = 0; i < 58; i++) expect((await h.get('/api/v1/tokens/balance', { key: second.value })).status).toBe(200);
    for (const key of [second.value, h.keys.readOnly, h.keys.readWrite]) {
      const res = await h.get('/api/v1/tokens/balance', { key });
      expect(res.status).toBe(429);
      expect(res.body.details).toMatchObject({ bucket: 'user', limit: 120 });
    }
    h.advance(60_000);
    expect((await h.get('/api/v1/tokens/balance', { key: second.value })).status).toBe(200);
  });
});
