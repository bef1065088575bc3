import type { Check } from '../check.js';
import { newestIds, readBalance } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { expectStatus, expectSuccess } from './expect.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REPLAY = 'Endpoints rule 2: reusing an Idempotency-Key within 24 hours returns the existing build with idempotent: true';

export function idempotencyChecks(): Check[] {
  const spends = { groups: ['spend' as const] };
  return [
    {
      ...spends,
      id: 'builds.created',
      title: 'Resources, Build: creation answers buildId (a UUID) and correlationId (corr_<token>), without idempotent',
      level: 'documented',
      covers: ['createBuild'],
      requests: 6,
      run: async (s) => {
        const { created } = await s.fixtures.blogBuild();
        expectSuccess(created, 'Endpoints: POST /api/v1/builds creates a build');
        expectThat(UUID.test(String(created.json.buildId)), `Resources, Build: buildId is a UUID: got ${JSON.stringify(created.json.buildId)}`);
        expectThat(/^corr_[A-Za-z0-9]+$/.test(String(created.json.correlationId)), `Resources, Build: correlationId has the form corr_<token>: got ${JSON.stringify(created.json.correlationId)}`);
        expectThat(!('idempotent' in created.json), `Resources, Build: idempotent is present only on a replay: got ${created.text}`);
      },
    },
    {
      ...spends,
      id: 'idempotency.replay',
      title: REPLAY,
      level: 'documented',
      covers: ['createBuild'],
      requests: 8,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        const { reply } = await s.fixtures.blogReplay();
        expectSuccess(reply, REPLAY);
        expectEqual(reply.json.buildId, build.buildId, `${REPLAY}: the same buildId`);
        expectEqual(reply.json.idempotent, true, `${REPLAY}: idempotent`);
      },
    },
    {
      ...spends,
      id: 'idempotency.no-charge',
      title: 'Endpoints rule 2: a replay charges no tokens: balance and lifetimeUsed unchanged',
      level: 'documented',
      covers: ['createBuild'],
      requests: 8,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        const { after } = await s.fixtures.blogReplay();
        expectEqual(after.balance, build.after.balance, 'Endpoints rule 2: balance after a replay');
        expectEqual(after.lifetimeUsed, build.after.lifetimeUsed, 'Endpoints rule 2: lifetimeUsed after a replay');
        if (s.strict) {
          const before = (build.transactionsAfter ?? []).map((t) => t.id);
          const now = (await s.fixtures.blogReplay()).transactionsAfter?.map((t) => t.id);
          expectEqual(now, before, 'openapi.yaml: a replay adds no transaction');
        }
      },
    },
    {
      ...spends,
      id: 'idempotency.no-new-build',
      title: 'Endpoints rule 2: a replay creates no new build: the build list does not grow',
      level: 'strict',
      covers: ['createBuild', 'listBuilds'],
      requests: 8,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        const { buildsAfter } = await s.fixtures.blogReplay();
        expectEqual(build.buildsAfter?.length, (build.buildsBefore?.length ?? 0) + 1, 'openapi.yaml: the first creation adds one build to the list');
        expectEqual(build.buildsAfter?.[0], build.buildId, 'openapi.yaml: builds are listed newest first');
        expectEqual(buildsAfter, build.buildsAfter, 'Endpoints rule 2: the build list after a replay');
      },
    },
    {
      ...spends,
      id: 'idempotency.statuses',
      title: 'openapi.yaml: a first creation answers 202, a replay 200, both with the Location of the build',
      level: 'strict',
      covers: ['createBuild'],
      requests: 8,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        const { reply } = await s.fixtures.blogReplay();
        expectStatus(build.created, 202, 'openapi.yaml: a build creation answers 202');
        expectStatus(reply, 200, 'openapi.yaml: an idempotent replay answers 200');
        for (const r of [build.created, reply]) expectEqual(r.headers.location, `/api/v1/builds/${build.buildId}`, 'openapi.yaml: Location of the build');
      },
    },
    {
      id: 'idempotency.window',
      title: 'Limits: the idempotency window is 24 hours: after it, the same key creates a new build and charges it',
      level: 'strict',
      groups: ['spend'],
      simulator: 'moves the clock 24 hours',
      covers: ['createBuild'],
      requests: 10,
      run: async (s) => {
        s.spend(1, 'a build after the idempotency window');
        const build = await s.fixtures.blogBuild();
        await s.fixtures.blogReplay();
        await s.time.sleep(24 * 60 * 60 * 1000);
        const before = await readBalance(s);
        const again = await s.client.op('createBuild', {}, { body: build.body, headers: { 'Idempotency-Key': build.idempotencyKey } });
        expectStatus(again, 202, 'Limits: after 24 hours the key creates a new build (202)');
        expectThat(again.json.buildId !== build.buildId && !('idempotent' in again.json), `Limits: a new build after the window: got ${again.text}`);
        const after = await readBalance(s);
        expectEqual(before.balance - after.balance, 1, 'Limits, Cost: the new build is charged');
        expectEqual((await newestIds(s, 'listBuilds', 1))[0]?.id, again.json.buildId, 'openapi.yaml: the new build is listed first');
      },
    },
  ];
}
