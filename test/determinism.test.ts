import { describe, expect, it } from 'vitest';
import { harness } from './support/harness.js';

async function script(seed: string) {
  const h = harness({ seed, speed: 'realistic' });
  const bodies: string[] = [];
  const record = async (p: Promise<{ text: string }>) => bodies.push((await p).text);
  await record(h.get('/api/v1/tokens/balance'));
  const target = await h.post('/api/v1/targets', { name: 'Acme', slug: 'acme', brandKit: { tone: 'playful' } });
  bodies.push(target.text);
  const build = await h.post('/api/v1/builds', { targetId: target.body.id, kind: 'blog', objective: 'Espresso at home' }, { headers: { 'Idempotency-Key': 'a' } });
  bodies.push(build.text);
  h.advance(10 * 60_000);
  const got = await h.get(`/api/v1/builds/${build.body.buildId}`);
  bodies.push(got.text);
  await record(h.get(`/api/v1/deliverables/${got.body.deliverables[0].id}`));
  await record(h.get(`/api/v1/deliverables/${got.body.deliverables[0].id}/download?format=html`));
  await record(h.get('/api/v1/tokens/transactions'));
  return { bodies, keys: h.keys };
}

describe('determinism (same seed and requests → byte-identical responses)', () => {
  it('repeats every body byte for byte, keys included', async () => {
    const a = await script('repeatable');
    const b = await script('repeatable');
    expect(b.bodies).toEqual(a.bodies);
    expect(b.keys).toEqual(a.keys);
  });

  it('changes ids, keys and content with the seed', async () => {
    const a = await script('one');
    const b = await script('two');
    expect(b.keys.readWrite).not.toBe(a.keys.readWrite);
    expect(b.bodies[2]).not.toBe(a.bodies[2]);
    expect(b.bodies[4]).not.toBe(a.bodies[4]);
  });
});
