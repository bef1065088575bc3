import { describe, expect, it } from 'vitest';
import { Rng } from '../src/random/rng.js';
import { harness } from './support/harness.js';

/**
 * What an attacker who knows the seed (it is public, and `GET /_sim` tells it) can derive:
 * they run their own simulator with that seed and replay the victim's requests. The demo
 * keys printed at start are public by design; every secret made afterwards must differ.
 */
async function secretsOf(seed: string, deterministicSecrets = false, randomDemoKeys = false) {
  const h = harness({ seed, deterministicSecrets, randomDemoKeys, speed: 'instant' });
  const created = await h.post('/api/v1/keys', { name: 'ci', scopes: ['svc:read'] });
  const rotated = await h.post(`/api/v1/keys/${created.body.id}/rotate`);
  const account = await h.post('/_sim/accounts', { balance: 5 }, { key: null });
  const target = await h.target();
  const buildId = await h.build({ targetId: target, kind: 'blog', objective: 'Secrets' });
  h.advance(60_000);
  const build = await h.get(`/api/v1/builds/${buildId}`);
  const share = await h.post(`/api/v1/deliverables/${build.body.deliverables[0].id}/shares`, {});
  return { demo: h.keys, secrets: [created.body.value, rotated.body.value, ...Object.values(account.body.keys as Record<string, string>), share.body.token] as string[] };
}

describe('secrets come from a cryptographic source', () => {
  it('cannot be derived from the seed: the same seed and the same requests give other keys and share tokens', async () => {
    for (const seed of ['content-sim', 'custom-seed-42']) {
      const victim = await secretsOf(seed);
      const attacker = await secretsOf(seed);
      expect(attacker.demo).toEqual(victim.demo); // the printed demo keys: public by design
      expect(victim.secrets).toHaveLength(7);
      for (const [i, secret] of victim.secrets.entries()) expect(attacker.secrets[i], `secret ${i}`).not.toBe(secret);
      expect(new Set(victim.secrets).size).toBe(victim.secrets.length);
    }
  });

  it('replays byte for byte with deterministicSecrets (documented as unsafe)', async () => {
    const a = await secretsOf('replay', true);
    const b = await secretsOf('replay', true);
    expect(b.secrets).toEqual(a.secrets);
  });

  it('draws even the demo keys at random when asked (the CLI beyond loopback), and they work', async () => {
    const victim = await secretsOf('content-sim', false, true);
    const attacker = await secretsOf('content-sim', false, true);
    const seeded = await secretsOf('content-sim');
    for (const name of Object.keys(seeded.demo) as (keyof typeof seeded.demo)[]) {
      expect(victim.demo[name], name).not.toBe(seeded.demo[name]);
      expect(victim.demo[name], name).not.toBe(attacker.demo[name]);
    }
    // Every call above was made with the random demo key, and each gave its secret.
    for (const secret of victim.secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('appear in no seeded stream: the next draws of every stream an attacker can rebuild from the seed and the ids', async () => {
    for (const seed of ['content-sim', 'custom-seed-42']) {
      const h = harness({ seed, speed: 'instant' });
      const { secrets } = await secretsOf(seed);
      const accountIds = [...h.simulator.internal.store.accounts.keys()];
      const streams = [['key-values'], ['store-ids'], ['correlation-ids'], ...accountIds.map((id) => ['account-ids', id])];
      for (const parts of streams) {
        const rng = new Rng(seed, ...parts);
        const drawn = rng.hex(8 * 4096); // the stream's next 4096 words, every alignment of a secret on them
        for (const secret of secrets) expect(drawn, `${parts.join('/')}`).not.toContain(secret.replace(/^svc_live_/, '').slice(0, 16));
      }
    }
  });
});
