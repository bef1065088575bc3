import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, mcpCall, oauthRig, signedInClient, type OAuthRig } from './support.js';

/**
 * A grant lives no longer than the API key typed on the sign-in page, and the account sees
 * and ends its grants through the service API (`listOAuthGrants`, `revokeOAuthGrant`).
 */
let rig: OAuthRig;
beforeEach(async () => (rig = await oauthRig()));
afterEach(async () => rig.close());

async function newKey(name: string): Promise<{ id: string; value: string }> {
  const created = await api(rig.base, 'POST', '/api/v1/keys', rig.simulator.keys.readWrite, { name, scopes: ['svc:read', 'svc:write'] });
  expect(created.status).toBe(201);
  return created.body;
}

const refusedRefresh = (promise: Promise<unknown>) => expect(promise).rejects.toMatchObject({ error: 'invalid_grant' });

describe('a grant tied to its API key', () => {
  it('revoking the key refuses the grant’s access token on /mcp and its refresh token', async () => {
    const key = await newKey('signs in');
    const signed = await signedInClient(rig.base, key.value);
    expect((await mcpCall(rig.base, signed.tokens.access_token)).status).toBe(200);
    expect((await api(rig.base, 'DELETE', `/api/v1/keys/${key.id}`, rig.simulator.keys.readWrite)).status).toBe(200);
    const refused = await mcpCall(rig.base, signed.tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining('revoked or rotated') });
    await refusedRefresh(signed.refresh(signed.tokens.refresh_token!));
  });

  it('rotating the key does the same, and a grant made with another key goes on', async () => {
    const rotated = await newKey('rotated');
    const kept = await newKey('kept');
    const onRotated = await signedInClient(rig.base, rotated.value);
    const onKept = await signedInClient(rig.base, kept.value);
    expect((await api(rig.base, 'POST', `/api/v1/keys/${rotated.id}/rotate`, rig.simulator.keys.readWrite)).status).toBe(201);
    expect((await mcpCall(rig.base, onRotated.tokens.access_token)).status).toBe(401);
    await refusedRefresh(onRotated.refresh(onRotated.tokens.refresh_token!));
    const refreshed = await onKept.refresh(onKept.tokens.refresh_token!);
    expect((await mcpCall(rig.base, refreshed.access_token)).status).toBe(200);
  });
});

describe('the account’s grants', () => {
  it('lists each live grant with its client, scopes and key, and revokes one at once', async () => {
    const key = await newKey('assistants');
    const editor = await signedInClient(rig.base, key.value, 'Editor assistant');
    const reader = await signedInClient(rig.base, key.value, 'Reader assistant', 'svc:read');
    const listed = await api(rig.base, 'GET', '/api/v1/oauth/grants', rig.simulator.keys.readOnly);
    expect(listed.status).toBe(200);
    expect(listed.body.nextCursor).toBeNull();
    expect(listed.body.data).toHaveLength(2);
    const byClient = new Map(listed.body.data.map((g: any) => [g.clientId, g]));
    expect(byClient.get(editor.client.client_id)).toMatchObject({ clientName: 'Editor assistant', scopes: ['svc:read', 'svc:write'], keyId: key.id, status: 'active' });
    expect(byClient.get(reader.client.client_id)).toMatchObject({ clientName: 'Reader assistant', scopes: ['svc:read'], keyId: key.id, status: 'active' });
    expect(JSON.stringify(listed.body)).not.toContain(editor.tokens.access_token);

    const grantId = (byClient.get(editor.client.client_id) as { id: string }).id;
    // A read-only key may look, not revoke; another account sees nothing of it.
    expect((await api(rig.base, 'DELETE', `/api/v1/oauth/grants/${grantId}`, rig.simulator.keys.readOnly)).status).toBe(403);
    const stranger = rig.simulator.keys.emptyAccount;
    expect((await api(rig.base, 'GET', '/api/v1/oauth/grants', stranger)).body.data).toEqual([]);
    expect((await api(rig.base, 'DELETE', `/api/v1/oauth/grants/${grantId}`, stranger)).status).toBe(404);

    const revoked = await api(rig.base, 'DELETE', `/api/v1/oauth/grants/${grantId}`, rig.simulator.keys.readWrite);
    expect(revoked).toMatchObject({ status: 200, body: { id: grantId, status: 'revoked' } });
    expect((await mcpCall(rig.base, editor.tokens.access_token)).status).toBe(401);
    await refusedRefresh(editor.refresh(editor.tokens.refresh_token!));
    expect((await mcpCall(rig.base, reader.tokens.access_token)).status).toBe(200);
    const after = await api(rig.base, 'GET', '/api/v1/oauth/grants', rig.simulator.keys.readWrite);
    expect(after.body.data.map((g: any) => g.clientId)).toEqual([reader.client.client_id]);
    expect((await api(rig.base, 'DELETE', '/api/v1/oauth/grants/not-a-grant', rig.simulator.keys.readWrite)).status).toBe(400);
  });
});
