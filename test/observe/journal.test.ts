import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from './support.js';

const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));
const control = { key: null } as const;

describe('the request journal', () => {
  it('records what the client sent and got, filtered by account, operation, status, correlation id and time', async () => {
    const s = await serve({ frozenAt: '2026-03-02T09:00:00Z', speed: 'instant' });
    running.push(s);
    const me = await s.account();
    const bad = await s.call('POST', '/api/v1/targets', { key: me.key, body: { name: '' } });
    expect(bad.status).toBe(400);
    await s.call('POST', '/_sim/clock/advance', { ...control, body: { seconds: 30 } });
    const good = await s.call('POST', '/api/v1/targets', { key: me.key, body: { name: 'Good', slug: 'good', brandKit: { voice: 'v', tone: 't' } } });

    const query = async (q: string) => (await s.call('GET', `/_sim/journal?${q}`, control)).json.data as Array<Record<string, any>>;
    const mine = await query(`accountId=${me.id}`);
    expect(mine.map((e) => [e.method, e.operationId, e.status])).toEqual([['POST', 'createTarget', 201], ['POST', 'createTarget', 400]]);
    const [created, refused] = mine as [Record<string, any>, Record<string, any>];
    expect(refused).toMatchObject({ url: '/api/v1/targets', errorCode: 'VALIDATION_ERROR', keyHint: `svc_live_…${me.key.slice(-4)}`, requestBody: '{"name":""}', injected: null });
    expect(created.correlationId).toBe(good.headers.get('x-correlation-id'));
    expect(JSON.parse(created.responseBody).id).toBe(good.json.id);
    expect(await query(`status=400&accountId=${me.id}`)).toEqual([refused]);
    expect(await query(`correlationId=${created.correlationId}`)).toEqual([created]);
    expect(await query(`since=2026-03-02T09:00:10Z&accountId=${me.id}`)).toEqual([created]);
    expect(await query(`limit=1&accountId=${me.id}`)).toEqual([created]);
    expect((await s.call('GET', '/_sim/journal?status=abc', control)).status).toBe(400);
  });

  it('keeps no secret: keys, OAuth tokens and share links are redacted before they are kept', async () => {
    const s = await serve({ speed: 'instant' });
    running.push(s);
    const me = await s.account();
    const made = await s.call('POST', '/_sim/accounts', { ...control, body: { balance: 10 } });
    const key = (await s.call('POST', '/api/v1/keys', { key: me.key, body: { name: 'ci', scopes: ['svc:read'] } })).json.value as string;
    const rotated = (await s.call('POST', `/api/v1/keys/${(await s.call('GET', '/api/v1/keys', { key: me.key })).json.data[0].id}/rotate`, { key: me.key, body: {} })).json.value as string;
    const tokens = (await s.call('POST', '/_sim/oauth/tokens', { ...control, body: { apiKey: me.key } })).json;
    const targetId = (await s.call('POST', '/api/v1/targets', { key: me.key, body: { name: 'S', slug: 's', brandKit: { voice: 'v', tone: 't' } } })).json.id;
    const buildId = (await s.call('POST', '/api/v1/builds', { key: me.key, body: { targetId, kind: 'blog', objective: 'Secrets' } })).json.buildId;
    await s.call('POST', '/_sim/clock/advance', { ...control, body: { seconds: 600 } });
    const deliverableId = (await s.call('GET', `/api/v1/builds/${buildId}`, { key: me.key })).json.deliverables[0].id;
    const share = (await s.call('POST', `/api/v1/deliverables/${deliverableId}/shares`, { key: me.key, body: {} })).json;
    await s.call('GET', share.url, { key: null });
    await s.call('GET', `/api/v1/tokens/balance?api_key=${me.key}`, { key: null });

    const journal = JSON.stringify((await s.call('GET', '/_sim/journal?limit=1000', control)).json);
    const secrets = [me.key, key, rotated, tokens.access_token, tokens.refresh_token, share.token, ...Object.values(made.json.keys as Record<string, string>)];
    for (const secret of secrets) expect(journal, secret.slice(0, 12)).not.toContain(secret);
    expect(journal).toContain(`svc_live_…${key.slice(-4)}`); // hints stay, to tell keys apart
  });

  it('keeps the newest entries of a bounded ring, and none at size 0', async () => {
    const small = await serve({ journalSize: 3 });
    const none = await serve({ journalSize: 0 });
    running.push(small, none);
    for (let i = 0; i < 5; i++) {
      await small.call('GET', `/api/v1/targets?limit=${i + 1}`);
      await none.call('GET', '/api/v1/targets');
    }
    const kept = (await small.call('GET', '/_sim/journal', control)).json;
    expect(kept.size).toBe(3);
    expect(kept.data.map((e: { url: string }) => e.url)).toEqual(['/api/v1/targets?limit=5', '/api/v1/targets?limit=4', '/api/v1/targets?limit=3']);
    expect((await none.call('GET', '/_sim/journal', control)).json.data).toEqual([]);
  });
});
