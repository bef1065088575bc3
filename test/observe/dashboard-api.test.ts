import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from './support.js';

const running: Served[] = [];
afterEach(async () => Promise.all(running.splice(0).map((s) => s.close())));
const control = { key: null } as const;

/** What the dashboard reads, called as any script would (every response validated against simulator-control.yaml). */
describe('the control API behind the dashboard', () => {
  it('lists accounts newest first with key hints only, and the newest builds with where each stands', async () => {
    const s = await serve({ frozenAt: Date.UTC(2026, 0, 5, 9) });
    running.push(s);
    const me = await s.account(40);
    const accounts = (await s.call('GET', '/_sim/accounts?limit=2', control)).json;
    expect(accounts.total).toBe(3);
    expect(accounts.data).toHaveLength(2);
    expect(accounts.data[0]).toMatchObject({ accountId: me.id, balance: 40, builds: 0 });
    expect(accounts.data[0].keys.map((k: { hint: string }) => k.hint)).toContain(`svc_live_…${me.key.slice(-4)}`);
    expect(JSON.stringify(accounts)).not.toContain(me.key);

    const target = (await s.call('POST', '/api/v1/targets', { key: me.key, body: { name: 'Dash', slug: 'dash' } })).json.id;
    const made = (await s.call('POST', '/api/v1/builds', { key: me.key, body: { targetId: target, kind: 'blog', objective: 'Watched' } })).json;
    const builds = (await s.call('GET', `/_sim/builds?accountId=${me.id}`, control)).json.data;
    expect(builds).toEqual([expect.objectContaining({ accountId: me.id, id: made.buildId, kind: 'blog', status: 'pending', progress: 0, stage: null, completedAt: null })]);
    await s.call('POST', '/_sim/clock/advance', { ...control, body: { seconds: 3600 } });
    const done = (await s.call('GET', '/_sim/builds', control)).json.data[0];
    expect(done).toMatchObject({ id: made.buildId, status: 'completed', progress: 100, stage: null });
    expect((await s.call('GET', '/_sim/builds?accountId=00000000-0000-4000-8000-000000000000', control)).status).toBe(404);
    // Reads of the control API stay out of the journal: the dashboard polls them every second.
    const journal = (await s.call('GET', '/_sim/journal', control)).json.data.map((e: { url: string }) => e.url);
    expect(journal.some((url: string) => url.startsWith('/_sim/accounts?') || url.startsWith('/_sim/builds'))).toBe(false);
    expect(journal).toContain('/_sim/clock/advance');
  });
});
