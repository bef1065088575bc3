import type { Check } from '../check.js';
import { blogBody, readBalance } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectStatus, expectSuccess } from './expect.js';

const RULE = 'Endpoints rule 2: reusing an Idempotency-Key within 24 hours returns the existing build with idempotent: true, creates no new build and charges no tokens';
const OTHER_BODY = `${RULE}: also when the reuse carries another body`;
const AFTER_FAILURE = 'Endpoints rule 2: a key whose first use was refused made no build: reused with a valid body, it creates one (not idempotent) and charges it';
const CONCURRENT = `${RULE}: concurrent first uses of one key create one build, charged once`;
const EDGE = 'Limits: the idempotency window is 24 hours: a replay one second before it ends still returns the existing build, charging nothing';
const OTHER_KEY = 'openapi.yaml: idempotency is per account: another key of the same account reusing the Idempotency-Key gets the existing build';

function create(s: Session, body: Record<string, unknown>, idempotencyKey: string, as: 'readWrite' | 'writeOnly' = 'readWrite') {
  return s.client.op('createBuild', {}, { as, body, headers: { 'Idempotency-Key': idempotencyKey } });
}

/** Idempotency beyond the plain replay: other bodies, refused firsts, concurrency, the window's last second, other keys. */
export function idempotencyEdgeChecks(): Check[] {
  const spends = { groups: ['spend' as const], covers: ['createBuild'] };
  return [
    {
      ...spends,
      id: 'idempotency.other-body',
      title: OTHER_BODY,
      level: 'documented',
      requests: 10,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        await s.fixtures.blogReplay();
        await s.client.ensureWindow('readWrite', 'createBuild', 2);
        const before = await readBalance(s);
        const other = { ...build.body, objective: `Another objective under the same key (${s.config.runId})` };
        const reply = await create(s, other, build.idempotencyKey);
        expectSuccess(reply, OTHER_BODY);
        expectEqual([reply.json.buildId, reply.json.idempotent], [build.buildId, true], `${OTHER_BODY}: buildId and idempotent`);
        expectEqual(await readBalance(s), before, `${OTHER_BODY}: the balance object`);
      },
    },
    {
      ...spends,
      id: 'idempotency.after-failure',
      title: AFTER_FAILURE,
      level: 'documented',
      requests: 8,
      run: async (s) => {
        s.spend(1, 'a build under a key whose first use was refused');
        const target = await s.fixtures.target();
        await s.client.ensureWindow('readWrite', 'createBuild', 3);
        const key = `${s.config.runId}-after-failure`;
        const refused = await create(s, { ...blogBody(s, target.id), targetId: 'not-a-uuid' }, key);
        expectError(refused, '4xx', undefined, `${AFTER_FAILURE}: a targetId that is no UUID`);
        const before = await readBalance(s);
        const reply = await create(s, blogBody(s, target.id), key);
        expectSuccess(reply, AFTER_FAILURE);
        expectThat(reply.json.idempotent === undefined, `${AFTER_FAILURE}: the first build under the key is no replay: got ${reply.text.slice(0, 200)}`);
        const after = await readBalance(s);
        expectEqual(before.balance - after.balance, 1, `${AFTER_FAILURE}: the balance falls by the build's cost`);
      },
    },
    {
      ...spends,
      id: 'idempotency.concurrent',
      title: CONCURRENT,
      level: 'documented',
      requests: 8,
      run: async (s) => {
        s.spend(1, 'one build under three concurrent requests');
        const target = await s.fixtures.target();
        await s.client.ensureWindow('readWrite', 'createBuild', 4);
        const before = await readBalance(s);
        const key = `${s.config.runId}-concurrent`;
        const body = blogBody(s, target.id, `Three requests at once under one key (${s.config.runId})`);
        const replies = await Promise.all([create(s, body, key), create(s, body, key), create(s, body, key)]);
        for (const reply of replies) expectSuccess(reply, CONCURRENT);
        const ids = [...new Set(replies.map((r) => r.json.buildId))];
        expectEqual(ids.length, 1, `${CONCURRENT}: distinct buildIds answered`);
        expectEqual(replies.filter((r) => r.json.idempotent !== true).length, 1, `${CONCURRENT}: answers without idempotent: true (the one creation)`);
        const after = await readBalance(s);
        expectEqual([before.balance - after.balance, after.lifetimeUsed - before.lifetimeUsed], [1, 1], `${CONCURRENT}: balance and lifetimeUsed moved by one build`);
      },
    },
    {
      ...spends,
      id: 'idempotency.window-edge',
      title: EDGE,
      level: 'strict',
      simulator: 'moves the clock to one second before the window ends',
      requests: 8,
      run: async (s) => {
        s.spend(1, 'a build whose replay comes at the end of the window');
        const target = await s.fixtures.target();
        await s.client.ensureWindow('readWrite', 'createBuild', 2);
        const key = `${s.config.runId}-window-edge`;
        const body = blogBody(s, target.id, `A build replayed at the end of its window (${s.config.runId})`);
        const first = await create(s, body, key);
        expectStatus(first, 202, `${EDGE}: the creation`);
        await s.time.sleep(24 * 60 * 60_000 - 1000);
        const before = await readBalance(s);
        const replay = await create(s, body, key);
        expectSuccess(replay, EDGE);
        expectEqual([replay.json.buildId, replay.json.idempotent], [first.json.buildId, true], `${EDGE}: buildId and idempotent 23:59:59 later`);
        expectEqual(await readBalance(s), before, `${EDGE}: the balance object`);
      },
    },
    {
      ...spends,
      id: 'idempotency.other-key',
      title: OTHER_KEY,
      level: 'strict',
      roles: ['writeOnly'],
      requests: 8,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        await s.client.ensureWindow('writeOnly', 'createBuild', 2);
        const before = await readBalance(s);
        const reply = await create(s, build.body, build.idempotencyKey, 'writeOnly');
        expectSuccess(reply, OTHER_KEY);
        expectEqual([reply.json.buildId, reply.json.idempotent], [build.buildId, true], `${OTHER_KEY}: buildId and idempotent`);
        expectEqual(await readBalance(s), before, `${OTHER_KEY}: the balance object`);
      },
    },
  ];
}
