import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, call, rig, startBuild } from './support/account-clock-rig.js';
import { T0 } from './support/harness.js';
import { mcpCall } from './oauth/support.js';

const HOUR = 3_600_000;
const buildBody = (targetId: string) => ({ targetId, buildType: 'single', kind: 'blog', objective: 'Explain how to dial in espresso at home', researchPolicy: 'required' });

/** The JSON-RPC result of a tools/call, whether answered as JSON or as an event stream. */
async function toolResult(res: Response): Promise<{ isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> }> {
  const text = await res.text();
  const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data:')).map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(text)];
  const answer = messages.find((m) => m.result !== undefined || m.error !== undefined);
  expect(answer?.result, text.slice(0, 500)).toBeDefined();
  return answer.result;
}

describe('what follows an account\'s own clock, beyond builds, windows and tokens', () => {
  let r: Awaited<ReturnType<typeof rig>>;
  beforeAll(async () => {
    r = await rig({});
  });
  afterAll(() => r.close());

  it('its Idempotency-Key window, its share links and its ledger go by its time; another account\'s stay', async () => {
    const own = await account(r.base, { name: 'Own time', clock: { own: true } });
    const shared = await account(r.base, { name: 'Shared time' });
    const keyed = async (key: string, targetId: string) =>
      fetch(`${r.base}/api/v1/builds`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'same-build' }, body: JSON.stringify(buildBody(targetId)) });
    const targets: Record<string, string> = {};
    for (const a of [own, shared]) {
      const made = await call(r.base, 'POST', '/api/v1/targets', { key: a.keys.readWrite, body: { name: 'Brand', slug: 'brand', description: 'Coffee gear for home baristas', brandKit: { voice: 'expert', tone: 'warm' } } });
      targets[a.accountId] = made.body.id;
      expect((await keyed(a.keys.readWrite, made.body.id)).status).toBe(202);
    }
    // Both accounts finish a build on the simulator's time, and share its deliverable for an hour.
    await call(r.base, 'POST', '/_sim/clock/advance', { body: { seconds: 7200 } });
    await call(r.base, 'POST', `/_sim/accounts/${own.accountId}/clock/advance`, { body: { seconds: 7200 } });
    const links: Record<string, string> = {};
    for (const a of [own, shared]) {
      const builds = await call(r.base, 'GET', '/api/v1/builds', { key: a.keys.readWrite });
      const build = await call(r.base, 'GET', `/api/v1/builds/${builds.body.data[0].id ?? builds.body.data[0].buildId}`, { key: a.keys.readWrite });
      expect(build.body.build.status).toBe('completed');
      const share = await call(r.base, 'POST', `/api/v1/deliverables/${build.body.deliverables[0].id}/shares`, { key: a.keys.readWrite, body: { expiresInSeconds: 3600 } });
      expect(share.status).toBe(201);
      links[a.accountId] = new URL(share.body.url, r.base).pathname;
    }
    // The own clock goes past the key's 24 hours and the link's hour; the simulator's does not move.
    await call(r.base, 'POST', `/_sim/accounts/${own.accountId}/clock/advance`, { body: { seconds: 25 * 3600 } });

    const ownAgain = await keyed(own.keys.readWrite, targets[own.accountId]!);
    expect(ownAgain.status).toBe(202); // a new build: the key's window is over on this account's time
    const sharedAgain = await keyed(shared.keys.readWrite, targets[shared.accountId]!);
    expect(sharedAgain.status).toBe(200);
    expect(await sharedAgain.json()).toMatchObject({ idempotent: true });

    expect((await call(r.base, 'GET', links[own.accountId]!)).status).toBe(404);
    expect((await call(r.base, 'GET', links[shared.accountId]!)).status).toBe(200);

    // A failed build's charge and refund are stamped with its account's time.
    const failing = await call(r.base, 'POST', '/api/v1/builds', { key: own.keys.readWrite, body: { ...buildBody(targets[own.accountId]!), objective: 'Explain how to dial in espresso at home [fail:drafting]' } });
    expect(failing.status).toBe(202);
    const failed = failing.body.buildId as string;
    await call(r.base, 'POST', `/_sim/accounts/${own.accountId}/clock/advance`, { body: { seconds: 7200 } });
    expect((await call(r.base, 'GET', `/api/v1/builds/${failed}`, { key: own.keys.readWrite })).body.build.status).toBe('failed');
    const ledger = await call(r.base, 'GET', '/api/v1/tokens/transactions', { key: own.keys.readWrite });
    const ofFailed = ledger.body.data.filter((t: { buildId: string | null }) => t.buildId === failed);
    expect(ofFailed.map((t: { type: string }) => t.type).sort()).toEqual(['build_charge', 'build_refund']);
    for (const t of ofFailed) expect(Date.parse(t.createdAt)).toBeGreaterThanOrEqual(T0 + 27 * HOUR) // its own 2 h and 25 h; the simulator stands at 2 h;
    expect(r.simulator.clock.now()).toBe(T0 + 2 * HOUR);
  });

  it('waitForBuild over MCP sees its build finish when its account\'s clock moves, and only then', async () => {
    const own = await account(r.base, { name: 'Waiting', clock: { own: true } });
    const build = await startBuild(r.base, own.keys.readWrite);
    // While the tool waits on the frozen account clock, the simulator's clock moves: the build must not finish.
    const waiting = mcpCall(r.base, own.keys.readWrite, 'waitForBuild', { buildId: build, timeoutSeconds: 5 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await call(r.base, 'POST', '/_sim/clock/advance', { body: { seconds: 7200 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call(r.base, 'GET', `/api/v1/builds/${build}`, { key: own.keys.readWrite })).body.build.status).not.toBe('completed');
    await call(r.base, 'POST', `/_sim/accounts/${own.accountId}/clock/advance`, { body: { seconds: 7200 } });
    const result = await toolResult(await waiting);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.build.status).toBe('completed');

    // On another account that follows the simulator, the same wait times out on a frozen simulator clock.
    const shared = await account(r.base, { name: 'Not waiting' });
    const other = await startBuild(r.base, shared.keys.readWrite);
    await call(r.base, 'POST', `/_sim/accounts/${own.accountId}/clock/advance`, { body: { seconds: 7200 } });
    const timedOut = await toolResult(await mcpCall(r.base, shared.keys.readWrite, 'waitForBuild', { buildId: other, timeoutSeconds: 1 }));
    expect(timedOut.structuredContent.build.status).not.toBe('completed');
  });
});
