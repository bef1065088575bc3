import { describe, expect, it } from 'vitest';
import type { HarEntry } from '../../contracts/shared/har.js';
import { formatDrift } from '../../contracts/drift/report.js';
import { checkScene } from '../../contracts/scene/check.js';
import { planReads } from '../../contracts/scene/reads.js';
import { simulatorUnderTest } from '../violations/violated-simulator.js';
import { makeScene } from '../../contracts/scene/scene.js';
import { createSimulator } from '../../src/simulator.js';
import { InProcessRecording } from './in-process-har.js';

/** Loads a scene into a fresh simulator of another seed, as `POST /_sim/scenarios` does: it throws when refused. */
const load = (scene: ReturnType<typeof makeScene>) => createSimulator({ seed: 'scene-load', speed: 'realistic' }).loadScenario(scene.scenario);
const notesOf = (scene: ReturnType<typeof makeScene>) => Object.values(scene.notes).flat().map((n) => `${n.kind}: ${n.text}`);

describe('a scene: what a recording shows, and what it cannot say', () => {
  it('states a rotated key revoked (listed), the key that replaced it in the same account, a purchase, and the balance after later charges', () => {
    const r = new InProcessRecording();
    r.call('POST', '/api/v1/tokens/purchases', undefined, { bundleId: 'starter' });
    const made = r.call('POST', '/api/v1/keys', undefined, { name: 'deploy', scopes: ['svc:read', 'svc:write'] });
    const rotated = r.call('POST', `/api/v1/keys/${made.id}/rotate`, made.value);
    const target = r.call('POST', '/api/v1/targets', rotated.value, { name: 'Acme', slug: 'acme' });
    const doc = r.call('POST', '/api/v1/builds', rotated.value, { targetId: target.id, kind: 'doc', objective: 'Install guide' }); // 2 tokens, after the last balance answer
    r.call('GET', `/api/v1/builds/${doc.buildId}`, rotated.value);
    r.call('GET', '/api/v1/keys', rotated.value);
    const scene = makeScene(r.har(), { recording: 'rotate.har' });
    expect(scene.scenario.accounts).toHaveLength(1); // the rotated key's value was answered to the first: one account
    const account = scene.scenario.accounts[0]!;
    expect(account.keys.filter((k) => k.name.startsWith('deploy')).map((k) => [k.name, k.revoked ?? false])).toEqual([['deploy', true], ['deploy-2', false]]);
    expect(notesOf(scene)).toContain('cannot state: key deploy was rotated (a new key replaced it): stated revoked');
    expect(account.purchases).toEqual([{ bundle: 'starter' }]);
    const opened = r.call('GET', '/api/v1/tokens/balance', rotated.value).balance as number; // what it holds now, read after the scene was made
    expect(account.balance).toBe(opened);
    expect(account.builds!.map((b) => [b.kind, b.status])).toEqual([['doc', 'pending']]); // as last seen: the account's clock never moved
    expect(() => load(scene)).not.toThrow();
  });

  it("leaves a revoked share link out (listed), excludes the read of it, and does not state a key's 429 from the build-creation bucket", () => {
    const r = new InProcessRecording({ speed: 'fast' });
    const target = r.call('POST', '/api/v1/targets', undefined, { name: 'Acme', slug: 'acme' });
    const build = r.call('POST', '/api/v1/builds', undefined, { targetId: target.id, kind: 'blog', objective: 'Shares' });
    r.advance(600_000);
    const view = r.call('GET', `/api/v1/builds/${build.buildId}`);
    const share = r.call('POST', `/api/v1/deliverables/${view.deliverables[0].id}/shares`, undefined, {});
    r.call('DELETE', `/api/v1/shares/${share.id}`);
    r.call('GET', share.url, null);
    for (let i = 0; i < 12; i++) if (r.call('POST', '/api/v1/builds', undefined, { targetId: target.id, kind: 'blog', objective: `More ${i}` }).code === 'RATE_LIMITED') break;
    const scene = makeScene(r.har(), { recording: 'shares.har' });
    const account = scene.scenario.accounts[0]!;
    expect(account.builds![0]!.shares).toBeUndefined();
    expect(notesOf(scene)).toContain(`cannot state: share link ${share.id} of blog-1 was revoked: a scenario states live links only`);
    expect(account.keys[0]).toEqual({ name: 'read-write', scopes: ['svc:read', 'svc:write'] }); // no rateLimited: the read bucket was not spent
    expect(notesOf(scene).some((n) => /refused 429 by the key-build-create bucket/.test(n))).toBe(true);
    const plan = planReads(r.har(), scene, new Map());
    // The revoked link's read answered 404: asked again on the scene, which holds no such link, it answers 404 too.
    const read = plan.replay.find((x) => x.url.startsWith('/api/v1/shared/'))!;
    expect([read.entry.response.status, plan.excluded]).toEqual([404, []]);
    expect(plan.writes.map((x) => x.method)).toEqual(['DELETE']);
    expect(() => load(scene)).not.toThrow();
  });

  it('states chats with their messages, and keeps apart credentials nothing links', () => {
    const r = new InProcessRecording({ speed: 'fast' });
    const target = r.call('POST', '/api/v1/targets', undefined, { name: 'Acme', slug: 'acme' });
    const chat = r.call('POST', '/api/v1/chats', undefined, { targetId: target.id, title: 'Ideas' });
    r.call('POST', `/api/v1/chats/${chat.id}/messages`, undefined, { content: 'Suggest a post about arms' });
    r.call('GET', `/api/v1/chats/${chat.id}`);
    r.call('POST', '/api/v1/keys', undefined, { name: 'spare', scopes: ['svc:read'] });
    const stranger = createSimulator({ seed: 'elsewhere' }).keys.readOnly; // a key of no account here: only 401s
    r.call('GET', '/api/v1/targets', stranger);
    const scene = makeScene(r.har(), { recording: 'chats.har' });
    expect(scene.scenario.accounts.map((a) => a.keys.map((k) => [k.name, k.revoked ?? false]))).toEqual([[['read-write', false], ['spare', false]], [['revoked', true]]]);
    expect(scene.scenario.accounts[0]!.chats).toEqual([{ name: expect.stringMatching(/^chat-/), target: 'acme', title: 'Ideas', messages: ['Suggest a post about arms'] }]);
    expect(() => load(scene)).not.toThrow();
  });

  it("joins a key that met only a 403 to the account whose key list names its hint, with the list's name and scopes", () => {
    const r = new InProcessRecording({ speed: 'fast' });
    r.call('POST', '/api/v1/targets', r.simulator.keys.readOnly, { name: 'Nope', slug: 'nope' }); // 403: no id links it
    r.call('GET', '/api/v1/keys');
    const scene = makeScene(r.har(), { recording: 'hints.har' });
    expect(scene.scenario.accounts).toHaveLength(1);
    expect(scene.scenario.accounts[0]!.keys.find((k) => k.name === 'Read only')).toEqual({ name: 'Read only', scopes: ['svc:read'] });
    expect(scene.mapping.credentials.map((c) => [c.key, c.calls])).toEqual([['Read only', [1]], ['Read and write', [2]]]);
  });

  it("keeps within a scenario account's limits: past 50 images the newest are stated, the rest listed and out of the mapping", () => {
    const r = new InProcessRecording({ speed: 'fast' });
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      if (i % 5 === 0) r.advance(61_000); // a new minute of calls (images have a limit of their own)
      ids.push(r.call('POST', '/api/v1/images', undefined, { prompt: `Picture ${i}` }).id as string);
    }
    const scene = makeScene(r.har(), { recording: 'limits.har' });
    const images = scene.scenario.accounts[0]!.images!;
    expect([images.length, images[0]!.prompt, images.at(-1)!.prompt]).toEqual([50, 'Picture 3', 'Picture 52']);
    expect(notesOf(scene)).toContain('cannot state: 3 images more than a scenario account holds (50): the oldest left out (image-1, image-2, image-3)');
    expect(scene.mapping.objects.filter((o) => o.kind === 'image').map((o) => o.recorded)).toEqual(ids.slice(3));
    expect(() => load(scene)).not.toThrow();
  });

  it('states one key for a credential recorded whole in one call and cut to its hint in another', () => {
    const r = new InProcessRecording({ speed: 'fast' });
    r.call('GET', '/api/v1/tokens/balance');
    r.call('GET', '/api/v1/targets');
    const whole = r.entries[1]!.request.headers.find((h) => h.name === 'authorization')!;
    whole.value = `Bearer ${r.simulator.keys.readWrite}`;
    const scene = makeScene(r.har(), { recording: 'mixed.har' });
    expect(scene.scenario.accounts[0]!.keys).toEqual([{ name: 'read-write', scopes: ['svc:read', 'svc:write'] }]);
    expect(scene.mapping.credentials).toEqual([{ account: 'account-1', key: 'read-write', calls: [1] }, { account: 'account-1', key: 'read-write', calls: [2] }]);
    expect(JSON.stringify(scene)).not.toContain(r.simulator.keys.readWrite.slice(-8));
  });

  it('names an OAuth token that no key stands for in the mapping, by its calls only', () => {
    const r = new InProcessRecording({ speed: 'fast' });
    r.call('GET', '/api/v1/tokens/balance');
    const entry = structuredClone(r.entries[0]!) as HarEntry;
    entry.request.headers = entry.request.headers.map((h) => (h.name === 'authorization' ? { ...h, value: 'Bearer sim_at_…9f2c' } : h));
    r.entries.push(entry);
    const scene = makeScene(r.har(), { recording: 'oauth.har' });
    expect(scene.mapping.unmapped).toEqual([{ calls: [2], why: 'an OAuth access token or another credential than an API key' }]);
    expect(JSON.stringify(scene)).not.toContain('9f2c');
  });

  it('--redact-text: user text of the same shape and length, none of the recorded words, the failure marker kept; it still loads', () => {
    const r = new InProcessRecording({ speed: 'fast' });
    const contact = { name: 'Ada Lovelace', email: 'ada.lovelace@acme.example', phone: '+1 555 0100' };
    const target = r.call('POST', '/api/v1/targets', undefined, { name: 'Acme Robotics', slug: 'acme-robotics', description: 'Arms for workshops, since 1999.', brandKit: { voice: 'plain', tone: 'warm', pressRelease: { boilerplate: 'Acme makes arms.', mediaContact: contact, defaultQuoteMode: 'polish' } } });
    r.call('POST', `/api/v1/targets/${target.id}/library`, undefined, { name: 'R2 arm', type: 'product_blurb', content: 'A six-axis arm.', url: 'https://acme.example/arms/r2' });
    r.call('POST', '/api/v1/builds', undefined, { targetId: target.id, kind: 'blog', objective: 'Robots and safety [fail:critiquing]' });
    r.call('POST', '/api/v1/images', undefined, { prompt: 'A robot arm', style: 'photo' });
    r.advance(600_000);
    r.call('GET', '/api/v1/builds');
    const plain = makeScene(r.har(), { recording: 'text.har' });
    const redacted = makeScene(r.har(), { recording: 'text.har', redactText: true });
    const shape = (s: string) => s.replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A').replace(/[0-9]/g, '0');
    const texts = (scene: typeof plain) => {
      const a = scene.scenario.accounts[0]!;
      const t = a.targets![0]!;
      return [t.name, t.slug, t.description, (t.brandKit as { voice: string }).voice, t.library![0]!.name, t.library![0]!.content, a.builds![0]!.objective, a.images![0]!.prompt] as string[];
    };
    const before = texts(plain);
    const after = texts(redacted);
    expect(after.map(shape)).toEqual(before.map(shape));
    for (const word of ['Robotics', 'workshops', ' arm', 'safety', 'robot', 'plain']) expect(JSON.stringify(redacted)).not.toContain(word);
    expect(JSON.stringify(redacted.scenario.accounts[0]!.targets![0]!.name + redacted.scenario.accounts[0]!.builds![0]!.objective)).not.toContain('Acme');
    expect(after[6]).toMatch(/ \[fail:critiquing\]$/);
    const kit = redacted.scenario.accounts[0]!.targets![0]!.brandKit as { pressRelease: { mediaContact: typeof contact; defaultQuoteMode: string; boilerplate: string } };
    expect([shape(kit.pressRelease.mediaContact.email), shape(kit.pressRelease.mediaContact.phone), kit.pressRelease.defaultQuoteMode]).toEqual([shape(contact.email), shape(contact.phone), 'polish']);
    for (const word of ['Ada', 'Lovelace', 'lovelace', '555 0100', 'makes']) expect(JSON.stringify(redacted)).not.toContain(word);
    const url = redacted.scenario.accounts[0]!.targets![0]!.library![0]!.url as string;
    expect([url.startsWith('https://acme.example/'), url.length, url.includes('arms')]).toEqual([true, 'https://acme.example/arms/r2'.length, false]);
    expect(redacted.scenario.accounts[0]!.builds![0]!.target).toBe(after[1]); // the build names its target's new slug
    expect(() => load(redacted)).not.toThrow();
  });

  it("compares a list's items by their mapped ids: the scene makes the longest builds first, so its list comes in another order", async () => {
    const r = new InProcessRecording();
    const target = r.call('POST', '/api/v1/targets', undefined, { name: 'Acme', slug: 'acme' });
    const item = r.call('POST', `/api/v1/targets/${target.id}/library`, undefined, { name: 'Tagline', type: 'product_blurb', content: 'Try it.' });
    const news = r.call('POST', '/api/v1/builds', undefined, { targetId: target.id, kind: 'news', objective: 'Quick news', libraryItemIds: [item.id] });
    expect(news.buildId, JSON.stringify(news)).toBeDefined();
    r.call('POST', '/api/v1/builds', undefined, { targetId: target.id, kind: 'blog', objective: 'A long read', researchMode: 'deep', qualityMode: 'premium' });
    r.advance(3_600_000);
    const list = r.call('GET', '/api/v1/builds');
    expect(list.data.map((b: { kind: string; libraryItemIds?: unknown }) => [b.kind, 'libraryItemIds' in b])).toEqual([['blog', false], ['news', true]]);
    const scene = makeScene(r.har(), { recording: 'order.har' });
    const target2 = simulatorUnderTest(undefined, { speed: 'realistic', seed: 'scene-order' });
    const check = await checkScene({ har: r.har(), scene, baseUrl: 'http://simulator.in-process', fetch: target2.fetch });
    expect(check.drifts.map(formatDrift)).toEqual([]);
    expect(check.replayed).toBe(1);
  });
});
