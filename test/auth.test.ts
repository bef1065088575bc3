import { describe, expect, it } from 'vitest';
import { harness } from './support/harness.js';

describe('authentication and scopes (spec, Authentication 1-5)', () => {
  const h = harness();

  it('401 UNAUTHORIZED when the header is missing or not Bearer', async () => {
    const missing = await h.get('/api/v1/tokens/balance', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('UNAUTHORIZED');
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    const basic = await h.get('/api/v1/tokens/balance', { key: null, headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.body.code).toBe('UNAUTHORIZED');
  });

  it.each([
    ['malformed', 'svc_live_123'],
    ['wrong prefix', `svc_test_${'a'.repeat(40)}`],
    ['unknown', `svc_live_${'0'.repeat(40)}`],
  ])('401 INVALID_API_KEY for a %s key', async (_, key) => {
    const res = await h.get('/api/v1/tokens/balance', { key });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_API_KEY');
  });

  it('401 INVALID_API_KEY for a revoked key', async () => {
    const res = await h.get('/api/v1/tokens/balance', { key: h.keys.revoked });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'INVALID_API_KEY', details: { reason: 'revoked' } });
  });

  it('403 SCOPE_REQUIRED naming svc:write when a read-only key writes', async () => {
    const res = await h.post('/api/v1/targets', { name: 'X', slug: 'x' }, { key: h.keys.readOnly });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'SCOPE_REQUIRED', details: { requiredScope: 'svc:write', grantedScopes: ['svc:read'] } });
  });

  it('403 SCOPE_REQUIRED naming svc:read when a write-only key reads', async () => {
    const res = await h.get('/api/v1/builds', { key: h.keys.writeOnly });
    expect(res.status).toBe(403);
    expect(res.body.details.requiredScope).toBe('svc:read');
  });

  it('never echoes the presented key in an error', async () => {
    const key = `svc_live_${'f'.repeat(40)}`;
    const res = await h.get('/api/v1/tokens/balance', { key });
    expect(res.text).not.toContain('f'.repeat(40));
  });

  it('keeps accounts apart: another account cannot see a build', async () => {
    const targetId = await h.target();
    const buildId = await h.build({ targetId });
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    const res = await h.get(`/api/v1/builds/${buildId}`, { key: stranger });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});
