import { describe, expect, it } from 'vitest';
import { createSimulator } from '../src/simulator.js';
import { assertContract } from './support/contract.js';
import { harness, T0 } from './support/harness.js';

describe('the clock refuses an instant it cannot represent', () => {
  it('answers 400 and leaves the clock where it was', async () => {
    const h = harness();
    const before = await h.get('/_sim/clock', { key: null });
    const refused = await h.post('/_sim/clock/advance', { seconds: 1e15 }, { key: null });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'body.seconds' }] } });
    const after = await h.get('/_sim/clock', { key: null });
    expect(after.body).toEqual(before.body);
    expect((await h.get('/api/v1/tokens/balance')).headers.date).not.toBe('Invalid Date');
  });
});

describe('an unsupported charset is refused', () => {
  it('answers 415 for a JSON body declared in another charset, and takes utf-8 in any spelling', async () => {
    const h = harness();
    const body = JSON.stringify({ name: 'Acme', slug: 'acme' });
    const latin = await h.call('POST', '/api/v1/targets', { rawBody: body, headers: { 'Content-Type': 'application/json; charset=iso-8859-1' } });
    expect(latin.status).toBe(415);
    expect(latin.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const utf8 = await h.call('POST', '/api/v1/targets', { rawBody: body, headers: { 'Content-Type': 'application/json; charset="UTF-8"' } });
    expect(utf8.status).toBe(201);
  });
});

describe('an idempotent replay is answered first', () => {
  it('returns the existing build even after its target was deleted', async () => {
    const h = harness();
    const targetId = await h.target();
    const fields = { targetId, kind: 'blog', objective: 'Replays' };
    const buildId = await h.build(fields, undefined, 'replay-after-delete');
    expect((await h.call('DELETE', `/api/v1/targets/${targetId}`)).status).toBe(204);
    const replay = await h.post('/api/v1/builds', fields, { headers: { 'Idempotency-Key': 'replay-after-delete' } });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ buildId, idempotent: true });
    const fresh = await h.post('/api/v1/builds', fields, { headers: { 'Idempotency-Key': 'new-key' } });
    expect(fresh.status).toBe(404);
  });
});

describe('handle() with a whole URL', () => {
  it('answers as for the path, for in-process callers that pass what fetch saw', () => {
    const sim = createSimulator({ frozenAt: T0 });
    const headers = { authorization: `Bearer ${sim.keys.readWrite}` };
    const whole = sim.handle({ method: 'GET', url: 'https://api.example.com/api/v1/builds?limit=5', headers });
    assertContract({ method: 'GET', url: '/api/v1/builds?limit=5', status: whole.status, headers: whole.headers, body: whole.body as string });
    expect(whole.status).toBe(200);
    expect(sim.handle({ method: 'GET', url: 'http://127.0.0.1:4010/api/v1/tokens/balance', headers }).body).toContain('"balance":100');
    expect(sim.handle({ method: 'GET', url: 'nonsense', headers }).status).toBe(404);
  });
});
