import { describe, expect, it } from 'vitest';
import { Rng } from '../src/random/rng.js';
import { harness } from './support/harness.js';

describe('bad input gets a clear 4xx in the { error, code, details } shape', () => {
  const h = harness();

  it('400 VALIDATION_ERROR for malformed JSON', async () => {
    const res = await h.call('POST', '/api/v1/targets', { rawBody: '{"name": ', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields[0].path).toBe('body');
  });

  it('400 with one entry per problem: wrong types, unknown fields, unknown values', async () => {
    const targetId = await h.target();
    const res = await h.post('/api/v1/builds', { targetId, kind: 'novel', objective: 42, colour: 'red' });
    expect(res.status).toBe(400);
    const paths = res.body.details.fields.map((f: { path: string }) => f.path).sort();
    expect(paths).toEqual(['body.colour', 'body.kind', 'body.objective']);
    const kind = res.body.details.fields.find((f: { path: string }) => f.path === 'body.kind');
    expect(kind.message).toContain('press_release');
  });

  it('400 for missing required fields and blank objectives', async () => {
    const missing = await h.post('/api/v1/builds', {});
    expect(missing.body.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['body.kind', 'body.objective', 'body.targetId']);
    const blank = await h.post('/api/v1/builds', { targetId: await h.target(), kind: 'blog', objective: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.details.fields).toEqual([{ path: 'body.objective', message: 'must not be blank' }]);
  });

  it('400 for a slug not in URL form; 409 CONFLICT for a slug already used', async () => {
    const bad = await h.post('/api/v1/targets', { name: 'Bad', slug: 'Not A Slug' });
    expect(bad.status).toBe(400);
    await h.post('/api/v1/targets', { name: 'One', slug: 'taken' });
    const dup = await h.post('/api/v1/targets', { name: 'Two', slug: 'taken' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'CONFLICT', details: { field: 'slug' } });
  });

  it('400 for pages that do not fit the build type', async () => {
    const targetId = await h.target();
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x', pages: 3 })).status).toBe(400);
    expect((await h.post('/api/v1/builds', { targetId, kind: 'blog', objective: 'x', buildType: 'suite' })).status).toBe(400);
  });

  it('400 when the body is missing', async () => {
    const res = await h.call('POST', '/api/v1/targets');
    expect(res.status).toBe(400);
    expect(res.body.details.fields[0].path).toBe('body');
  });

  it('413 PAYLOAD_TOO_LARGE above 1 MiB, and nothing is written', async () => {
    const before = (await h.get('/api/v1/targets')).body.data.length;
    const res = await h.post('/api/v1/targets', { name: 'Big', slug: 'big', description: 'x'.repeat(1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await h.get('/api/v1/targets')).body.data.length).toBe(before);
  });

  it('415 UNSUPPORTED_MEDIA_TYPE when the body is not JSON', async () => {
    const res = await h.call('POST', '/api/v1/targets', { rawBody: 'name=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('400 for a path id that is not a UUID, 404 NOT_FOUND for an unknown one', async () => {
    const bad = await h.get('/api/v1/builds/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields[0].path).toBe('path.buildId');
    const unknown = await h.get('/api/v1/builds/8a0c2f4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
    expect((await h.get('/api/v1/deliverables/8a0c2f4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b')).status).toBe(404);
    expect((await h.get('/api/v1/targets/8a0c2f4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b')).status).toBe(404);
  });

  it('404 when a build names a target that is not the caller’s', async () => {
    const res = await h.post('/api/v1/builds', { targetId: '8a0c2f4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b', kind: 'blog', objective: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.details).toMatchObject({ resource: 'target' });
  });

  it('404 for an unknown route and 405 METHOD_NOT_ALLOWED with Allow for a wrong method', async () => {
    expect((await h.get('/api/v1/widgets')).status).toBe(404);
    const res = await h.call('DELETE', '/api/v1/tokens/balance');
    expect(res.status).toBe(405);
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET');
  });

  it('400 for a download format other than md or html, and for bad list parameters', async () => {
    const instant = harness({ speed: 'instant' });
    const buildId = await instant.build({ targetId: await instant.target() });
    const [d] = (await instant.get(`/api/v1/builds/${buildId}`)).body.deliverables;
    const res = await instant.get(`/api/v1/deliverables/${d.id}/download?format=pdf`);
    expect(res.status).toBe(400);
    expect(res.body.details.fields[0].path).toBe('query.format');
    expect((await instant.get('/api/v1/builds?limit=0')).status).toBe(400);
    expect((await instant.get('/api/v1/builds?limit=abc')).status).toBe(400);
    expect((await instant.get('/api/v1/builds?cursor=forged')).status).toBe(400);
    expect((await instant.get('/api/v1/builds?status=done')).status).toBe(400);
  });

  it('answers CORS preflights without a key', async () => {
    const res = await h.call('OPTIONS', '/api/v1/builds', { key: null });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-headers']).toContain('Idempotency-Key');
  });

  it('echoes the request headers a preflight asks for (tracing, request ids), never anything malformed', async () => {
    const asked = 'x-request-id, sentry-trace, baggage, traceparent';
    const res = await h.call('OPTIONS', '/api/v1/builds', { key: null, headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': asked } });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-headers']).toBe(`Authorization, Content-Type, Idempotency-Key, ${asked}`);
    expect(res.headers.vary).toBe('Access-Control-Request-Headers');
    const odd = await h.call('OPTIONS', '/api/v1/builds', { key: null, headers: { 'Access-Control-Request-Headers': 'x-a, (bad)' } });
    expect(odd.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, Idempotency-Key');
  });

  it('never answers 5xx to random bodies, headers and paths', async () => {
    const rng = new Rng('fuzz');
    const targetId = await h.target();
    const values = [null, true, 0, -1, 1.5, 1e308, '', 'x'.repeat(5000), [], {}, [1, 'a'], { a: { b: [] } }, targetId, '\u0000', '__proto__'];
    const fields = ['targetId', 'kind', 'objective', 'buildType', 'researchPolicy', 'pages', 'name', 'slug', 'brandKit', 'description', '__proto__', 'constructor'];
    const routes = ['/api/v1/builds', '/api/v1/targets', '/_sim/clock/advance', '/_sim/accounts'];
    for (let i = 0; i < 300; i++) {
      const body: Record<string, unknown> = {};
      for (const field of rng.sample(fields, rng.int(0, 5))) body[field] = rng.pick(values);
      const raw = rng.bool(0.1) ? JSON.stringify(body).slice(0, rng.int(0, 20)) : JSON.stringify(rng.bool(0.1) ? rng.pick(values) : body);
      const url = rng.pick(routes);
      const res = await h.call('POST', url, {
        key: url.startsWith('/_sim') ? null : h.keys.readWrite,
        rawBody: raw,
        headers: { 'Content-Type': rng.pick(['application/json', 'text/plain', 'application/json; charset=utf-8']), 'Idempotency-Key': rng.pick(['k', 'key-' + i, 'x'.repeat(300)]) },
      });
      expect(res.status, `${url} ${raw}`).toBeLessThan(500);
    }
  });
});
