import { describe, expect, it } from 'vitest';
import { parseWavHeader, VOICES } from '../src/media/index.js';
import { harness, T0, type Harness } from './support/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const VOICE_IDS = ['aria', 'brook', 'cedar', 'dune', 'ember'];

/** A completed build's deliverable: creates a build, moves the clock past its end. */
async function deliverable(h: Harness, fields: Record<string, unknown> = {}, key = h.keys.readWrite): Promise<{ id: string; slug: string }> {
  const targetId = await h.target(key);
  const buildId = await h.build({ targetId, ...fields }, key);
  h.advance(15 * 60_000);
  const build = await h.get(`/api/v1/builds/${buildId}`, { key });
  expect(build.body.build.status).toBe('completed');
  const id = build.body.deliverables[0].id as string;
  return { id, slug: (await h.get(`/api/v1/deliverables/${id}`, { key })).body.slug };
}

describe('audio: voices', () => {
  it('lists the five voices to a read-only key', async () => {
    const h = harness();
    const res = await h.get('/api/v1/audio/voices', { key: h.keys.readOnly });
    expect(res.status).toBe(200);
    expect(res.body.data.map((v: { id: string }) => v.id)).toEqual(VOICE_IDS);
    expect(res.body.data[0]).toEqual({
      id: 'aria', name: 'Aria', gender: 'female', accent: 'American English', description: VOICES[0]?.description, wordsPerMinute: 172,
    });
  });
});

describe('audio: the listen version of a deliverable', () => {
  it('creates a record whose WAV file is real, playable and matches it', async () => {
    const h = harness();
    const d = await deliverable(h);
    const created = await h.post(`/api/v1/deliverables/${d.id}/audio`, { voice: 'brook' });
    expect(created.status).toBe(201);
    const audio = created.body;
    expect(audio.id).toMatch(UUID);
    expect(created.headers.location).toBe(`/api/v1/audio/${audio.id}`);
    expect(audio).toMatchObject({ deliverableId: d.id, voice: 'brook', sampleRate: 8000, fileUrl: `/api/v1/audio/${audio.id}/file` });
    expect(audio.createdAt).toBe(new Date(T0 + 15 * 60_000).toISOString());
    expect(audio.wordCount).toBeGreaterThan(200);
    // About 155 words a minute for Brook, plus pauses at punctuation.
    expect(audio.durationSeconds).toBeGreaterThan((audio.wordCount / 155) * 60);
    expect(audio.durationSeconds).toBeLessThan((audio.wordCount / 155) * 60 * 1.6);

    const file = await h.get(audio.fileUrl);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('audio/wav');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${d.slug}-brook.wav"`);
    expect(file.raw.length).toBe(audio.bytes);
    expect(file.raw.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(file.raw.subarray(8, 12).toString('latin1')).toBe('WAVE');
    const info = parseWavHeader(new Uint8Array(file.raw));
    expect(info).toMatchObject({ sampleRate: 8000, channels: 1, bitsPerSample: 8 });
    expect(info.durationSeconds).toBe(audio.durationSeconds);
    // Not silence: 8-bit PCM rests at 128.
    const samples = file.raw.subarray(44);
    expect(samples.some((s) => Math.abs(s - 128) > 20)).toBe(true);
    // Rendered again on each request, byte for byte the same.
    expect((await h.get(audio.fileUrl)).raw.equals(file.raw)).toBe(true);

    const fetched = await h.get(`/api/v1/audio/${audio.id}`, { key: h.keys.readOnly });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(audio);
  });

  it('works with each of the five voices, the faster voices giving shorter audio', async () => {
    const h = harness();
    const d = await deliverable(h);
    const durations: Record<string, number> = {};
    for (const voice of VOICE_IDS) {
      const res = await h.post(`/api/v1/deliverables/${d.id}/audio`, { voice });
      expect(res.status).toBe(201);
      const info = parseWavHeader(new Uint8Array((await h.get(res.body.fileUrl)).raw));
      expect(info.durationSeconds).toBe(res.body.durationSeconds);
      durations[voice] = res.body.durationSeconds;
    }
    const byPace = [...VOICES].sort((a, b) => a.wordsPerMinute - b.wordsPerMinute).map((v) => durations[v.id] as number);
    expect(byPace).toEqual([...byPace].sort((a, b) => b - a));
    expect(new Set(Object.values(durations)).size).toBe(5);
  });

  it('gives a longer deliverable longer audio', async () => {
    const h = harness();
    const short = await deliverable(h, { kind: 'social', objective: 'Announce our weekend cold brew tasting' });
    const long = await deliverable(h, { kind: 'blog', objective: 'A complete guide to brewing cold brew coffee at home', qualityMode: 'premium', researchMode: 'deep' });
    const a = (await h.post(`/api/v1/deliverables/${short.id}/audio`, { voice: 'dune' })).body;
    const b = (await h.post(`/api/v1/deliverables/${long.id}/audio`, { voice: 'dune' })).body;
    expect(b.wordCount).toBeGreaterThan(a.wordCount * 1.3);
    expect(b.durationSeconds).toBeGreaterThan(a.durationSeconds * 1.3);
    expect(b.bytes).toBeGreaterThan(a.bytes);
  });

  it('keeps one listen version per deliverable and voice: asking again answers it with 200', async () => {
    const h = harness();
    const d = await deliverable(h);
    const first = await h.post(`/api/v1/deliverables/${d.id}/audio`, { voice: 'cedar' });
    const again = await h.post(`/api/v1/deliverables/${d.id}/audio`, { voice: 'cedar' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await h.post(`/api/v1/deliverables/${d.id}/audio`, { voice: 'aria' });
    expect(other.status).toBe(201);
    const list = await h.get(`/api/v1/audio?deliverableId=${d.id}`);
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([other.body.id, first.body.id]);
    expect((await h.get('/api/v1/audio?deliverableId=0b6a4c1e-5d2f-4e8a-9b7c-1d2e3f4a5b6c')).body.data).toEqual([]);
    const page = await h.get('/api/v1/audio?limit=1');
    expect(page.body.data).toHaveLength(1);
    expect((await h.get(`/api/v1/audio?limit=1&cursor=${page.body.nextCursor}`)).body.data[0].id).toBe(first.body.id);
  });
});

describe('audio: refusals', () => {
  it('answers an unknown voice with 400 listing the five allowed values', async () => {
    const h = harness();
    const d = await deliverable(h);
    const res = await h.post(`/api/v1/deliverables/${d.id}/audio`, { voice: 'hal9000' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields).toEqual([{ path: 'body.voice', message: 'must be one of: aria, brook, cedar, dune, ember' }]);
    expect((await h.get('/api/v1/audio')).body.data).toEqual([]);
  });

  it.each([
    ['no voice', {}, 'body.voice'],
    ['a voice of the wrong type', { voice: 3 }, 'body.voice'],
    ['an unknown field', { voice: 'aria', speed: 2 }, 'body.speed'],
    ['a huge voice string', { voice: 'a'.repeat(100_000) }, 'body.voice'],
  ])('400 for %s', async (_name, body, path) => {
    const h = harness();
    const res = await h.post('/api/v1/deliverables/0b6a4c1e-5d2f-4e8a-9b7c-1d2e3f4a5b6c/audio', body);
    expect(res.status).toBe(400);
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
  });

  it('404 before the build completes, for an unknown deliverable and for another account\u2019s', async () => {
    const h = harness();
    const targetId = await h.target();
    const buildId = await h.build({ targetId });
    h.advance(15 * 60_000);
    const deliverableId = (await h.get(`/api/v1/builds/${buildId}`)).body.deliverables[0].id;
    const stranger = (await h.post('/_sim/accounts', {}, { key: null })).body.keys.readWrite;
    expect((await h.post(`/api/v1/deliverables/${deliverableId}/audio`, { voice: 'aria' }, { key: stranger })).status).toBe(404);
    expect((await h.post('/api/v1/deliverables/0b6a4c1e-5d2f-4e8a-9b7c-1d2e3f4a5b6c/audio', { voice: 'aria' })).status).toBe(404);

    // A deliverable whose build is still running does not exist yet for its owner either.
    const pendingBuild = await h.build({ targetId, objective: 'Still brewing' });
    const key = h.simulator.internal.store.findKey(h.keys.readWrite);
    const pendingDeliverable = h.simulator.internal.store.account(key?.accountId as string)?.builds.get(pendingBuild)?.deliverableIds[0];
    expect(pendingDeliverable).toMatch(UUID);
    const early = await h.post(`/api/v1/deliverables/${pendingDeliverable}/audio`, { voice: 'aria' });
    expect(early.status).toBe(404);
    expect(early.body.details).toEqual({ resource: 'deliverable', id: pendingDeliverable });

    const mine = await h.post(`/api/v1/deliverables/${deliverableId}/audio`, { voice: 'aria' });
    expect(mine.status).toBe(201);
    for (const url of [`/api/v1/audio/${mine.body.id}`, `/api/v1/audio/${mine.body.id}/file`]) {
      const res = await h.get(url, { key: stranger });
      expect(res.status).toBe(404);
      expect(res.body.details.resource).toBe('audio');
    }
  });

  it('400 for non-UUID ids; svc:write to create, svc:read to download', async () => {
    const h = harness();
    expect((await h.post('/api/v1/deliverables/nope/audio', { voice: 'aria' })).body.details.fields[0].path).toBe('path.deliverableId');
    expect((await h.get('/api/v1/audio/12345/file')).status).toBe(400);
    const d = await deliverable(h);
    expect((await h.post(`/api/v1/deliverables/${d.id}/audio`, { voice: 'aria' }, { key: h.keys.readOnly })).status).toBe(403);
    const audio = (await h.post(`/api/v1/deliverables/${d.id}/audio`, { voice: 'aria' }, { key: h.keys.writeOnly })).body;
    expect((await h.get(audio.fileUrl, { key: h.keys.writeOnly })).status).toBe(403);
    expect((await h.get(audio.fileUrl, { key: h.keys.readOnly })).status).toBe(200);
  });
});
