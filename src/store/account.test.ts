import { Clock } from '../clock/clock.js';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../simulator.js';
import { runAtOnce } from '../state/steps.js';
import { Account } from './account.js';
import { ACCOUNT_COLLECTIONS, IDEMPOTENCY_INDEXES } from './captured-tables.js';

const json = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));

/** A simulator whose first account has made one of nearly everything: a target, a library item, builds, a share. */
function busySimulator() {
  const simulator = createSimulator({ frozenAt: '2026-03-02T09:00:00.000Z', onFault: () => {} });
  const call = (method: string, url: string, body?: unknown) => {
    const response = simulator.handle({
      method,
      url,
      headers: { authorization: `Bearer ${simulator.keys.readWrite}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : json(body),
    });
    const text = typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return JSON.parse(text) as Record<string, any>;
  };
  const target = call('POST', '/api/v1/targets', { name: 'Acme', slug: 'acme', description: 'Coffee gear for home baristas' });
  call('POST', `/api/v1/targets/${target.id}/library`, { type: 'cta', name: 'Shop now', content: 'Browse the grinders', url: 'https://acme.example/shop' });
  const build = call('POST', '/api/v1/builds', { buildType: 'single', kind: 'blog', objective: 'Explain how to dial in espresso at home', researchPolicy: 'none', targetId: target.id });
  simulator.clock.advance(3_600_000);
  const done = call('GET', `/api/v1/builds/${build.buildId}`);
  const deliverableId = (done.deliverables as Array<{ id: string }>)[0]!.id;
  call('POST', `/api/v1/deliverables/${deliverableId}/shares`, {});
  const account = [...simulator.internal.store.accounts.values()].find((a) => a.targets.size > 0)!;
  return { simulator, account };
}

describe('an account saves, restores and clears itself', () => {
  it('restores to an account that saves the same, with its build index rebuilt', () => {
    const { simulator, account } = busySimulator();
    const saved = account.save();
    const now = simulator.clock.now();
    const restored = runAtOnce(Account.restoreSteps(JSON.parse(JSON.stringify(saved)), simulator.seed, now));
    expect(restored.save()).toEqual(saved);
    expect(saved.builds.entries).toHaveLength(1);
    expect(saved.shares.entries).toHaveLength(1);
    expect(saved.library.entries).toHaveLength(1);
    expect(restored.buildIndex.candidates(now, 'completed', undefined)).toEqual(account.buildIndex.candidates(now, 'completed', undefined));
    expect(restored.buildIndex.candidates(now, 'completed', undefined)).toHaveLength(1);
    // The same id stream: the next id each draws is the same.
    expect(restored.newId()).toBe(account.newId());
  });

  it('saves every field it has: a new collection not saved fails here', () => {
    const account = new Account('a', 'A', 0, 'seed');
    // A clock of its own is saved when it has one (an account on the simulator's saves none).
    account.clock = new Clock({ frozenAt: 0 });
    // Derived from the builds on restore, or the id stream saved as idStream.
    const notSaved = new Set(['buildIndex', 'idStream', 'capture']);
    const fields = Object.keys(account).filter((field) => !notSaved.has(field));
    expect(Object.keys(account.save()).sort()).toEqual(expect.arrayContaining(fields.sort()));
  });

  it('reports every field it has to a state log: in its header, a captured table, or derived from them', () => {
    const account = new Account('a', 'A', 0, 'seed');
    account.clock = new Clock({ frozenAt: 0 });
    const tables = new Set<string>([...ACCOUNT_COLLECTIONS, ...IDEMPOTENCY_INDEXES]);
    // Rebuilt from the records on replay (builds, targets, audio), or the capture itself.
    const derived = new Set(['buildIndex', 'deliverables', 'slugs', 'audioByDeliverableVoice', 'capture', 'id']);
    const header = Object.keys(account.header());
    const unreported = Object.keys(account).filter((field) => !tables.has(field) && !derived.has(field) && !header.includes(field));
    expect(unreported).toEqual([]);
  });

  it('clears what it made and keeps its keys; the store forgets its share links with it', () => {
    const { simulator, account } = busySimulator();
    const keys = account.save().keys;
    expect(simulator.internal.store.shareTokens.size).toBe(1);
    simulator.internal.store.clearAccount(account);
    const saved = account.save();
    expect(saved.keys).toEqual(keys);
    for (const name of ['transactions', 'targets', 'builds', 'library', 'shares', 'images', 'audio', 'chats'] as const) expect(saved[name].entries, name).toEqual([]);
    expect([saved.deliverables, saved.slugs, saved.idempotency, saved.pendingRefunds]).toEqual([[], [], [], []]);
    expect(saved.balance).toBe(0);
    expect(simulator.internal.store.shareTokens.size).toBe(0);
  });
});
