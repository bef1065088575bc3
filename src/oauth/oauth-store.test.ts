import { describe, expect, it } from 'vitest';
import { OAuthStore } from './oauth-store.js';

const client = { clientId: 'client_a', clientName: 'A', redirectUris: ['http://127.0.0.1/cb'], issuedAt: 1 };
const grant = { id: 'grant_a', accountId: 'acc', clientId: 'client_a', scopes: ['svc:read' as const], resource: 'http://127.0.0.1/mcp', revoked: false };

function filled(): OAuthStore {
  const store = new OAuthStore();
  store.clients.set(client.clientId, client);
  store.grants.set(grant.id, grant);
  store.accessTokens.set('a'.repeat(64), { grantId: grant.id, scopes: ['svc:read'], expiresAt: 10, revoked: false });
  // A token whose grant is gone: the server ignores it, so a save leaves it out.
  store.refreshTokens.set('b'.repeat(64), { grantId: 'grant_gone', expiresAt: 10, used: false });
  store.codes.set('c'.repeat(64), { clientId: 'client_gone', redirectUri: 'x', challenge: 'y', resource: 'z', scopes: [], accountId: 'acc', expiresAt: 5, grantId: null });
  return store;
}

describe('the OAuth store saves, restores and clears itself', () => {
  it('saves what resolves, and restores to a store that saves the same', () => {
    const saved = filled().save();
    expect(saved.refreshTokens).toEqual([]);
    expect(saved.codes).toEqual([]);
    expect(saved.accessTokens).toHaveLength(1);
    const restored = new OAuthStore();
    restored.pending.set('stale', { id: 'stale', csrf: '', clientId: 'client_a', redirectUri: '', state: null, challenge: '', scopes: [], resource: '', expiresAt: 1 });
    restored.restore(JSON.parse(JSON.stringify(saved)));
    expect(restored.save()).toEqual(saved);
    expect(restored.pending.size).toBe(0);
  });

  it('clears every table', () => {
    const store = filled();
    store.clear();
    expect(store.save()).toEqual({ clients: [], pending: [], codes: [], grants: [], accessTokens: [], refreshTokens: [] });
    expect(store.refreshTokens.size + store.codes.size).toBe(0);
  });
});
