import { deliverableTimingProblems, observeBuild, observeBuilds, orderProblems, pollBuild, skippedStatuses } from '../build-observer.js';
import type { Check } from '../check.js';
import { newestIds, readBalance } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

/** openapi.yaml, BuildCreate: the price of one page of each kind (inferred). */
export const KIND_PRICES: Readonly<Record<string, number>> = {
  blog: 1, web_page: 1, news: 1, how_to: 1, doc: 2, resource: 2, image: 1, social: 1, email: 1, press_release: 2,
};
const ALL_KINDS_COST = Object.values(KIND_PRICES).reduce((a, b) => a + b, 0);

async function create(s: Session, body: Record<string, unknown>): Promise<{ buildId: string; createdAt: number }> {
  const reply = await s.client.op('createBuild', {}, { body });
  expectStatus(reply, 202, `openapi.yaml: POST /api/v1/builds accepts ${JSON.stringify(body)}`);
  return { buildId: reply.json.buildId, createdAt: s.time.now() };
}

export const SOCIAL_DEFAULT = 'openapi.yaml: BuildCreate.socialPlatforms: a social build sent without platforms writes posts for x and linkedin (the default)';
const FAILED = 'States: failed is terminal; a failing build moves through the stages before it and has no deliverable';

export function buildKindChecks(): Check[] {
  return [
    {
      id: 'builds.failed',
      title: FAILED,
      level: 'documented',
      groups: ['spend', 'wait'],
      simulator: 'makes a build fail with the [fail:<stage>] magic input of its objective',
      covers: ['getBuild'],
      requests: 70,
      run: async (s) => {
        s.spend(1, 'a build that fails (refunded)');
        const target = await s.fixtures.target();
        await s.client.ensureWindow('readWrite', 'getBuild', 50);
        const before = await readBalance(s);
        const created = await create(s, { targetId: target.id, kind: 'blog', objective: `Contract check ${s.config.runId} [fail:drafting]` });
        const run = await observeBuild(s, created.buildId, created.createdAt, s.fineStepMs);
        const seen = run.observations.map((o) => o.status).join(', ');
        const problems = [...orderProblems(run.observations), ...skippedStatuses(run), ...deliverableTimingProblems(run.observations)];
        expectThat(problems.length === 0, `${FAILED}: ${problems.join('; ')} (seen: ${seen})`);
        expectEqual(run.final.status, 'failed', `${FAILED}: the [fail:drafting] build ends (seen: ${seen})`);
        if (s.seesEveryStatus) expectThat(run.observations.some((o) => o.status === 'drafting'), `${FAILED}: the build was seen drafting before it failed (seen: ${seen})`);
        await s.time.sleep(60 * 60_000);
        const later = await pollBuild(s, created.buildId);
        expectEqual([later.status, later.deliverableIds.length], ['failed', 0], `${FAILED}: status and deliverables an hour later`);
        if (!s.strict) return;
        expectEqual(later.body.build.failure?.stage, 'drafting', 'openapi.yaml: failure.stage names the stage that failed');
        const after = await readBalance(s);
        expectEqual([after.balance, after.lifetimeUsed], [before.balance, before.lifetimeUsed], 'openapi.yaml: a failed build refunds its cost (balance, lifetimeUsed)');
        const [refund] = await newestIds(s, 'listTokenTransactions', 1);
        expectEqual([refund?.type, refund?.amount, refund?.buildId], ['build_refund', 1, created.buildId], 'openapi.yaml: the refund is the newest transaction (type, amount, buildId)');
      },
    },
    {
      id: 'builds.every-kind',
      title: 'openapi.yaml: a build of each of the ten kinds completes with one deliverable of its kind, at the price of its kind',
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['createBuild', 'getBuild', 'getDeliverable', 'downloadDeliverable'],
      requests: 200,
      run: async (s) => {
        s.spend(ALL_KINDS_COST, 'a build of every kind');
        const target = await s.fixtures.target();
        const before = await readBalance(s);
        const kinds = Object.keys(KIND_PRICES);
        const created = [];
        for (const kind of kinds) created.push(await create(s, { targetId: target.id, kind, objective: `A ${kind.replace('_', ' ')} about coffee at home (${s.config.runId})` }));
        const runs = await observeBuilds(s, created, s.fineStepMs * 4);
        for (const [i, run] of runs.entries()) {
          const kind = kinds[i] as string;
          const problems = [...orderProblems(run.observations), ...deliverableTimingProblems(run.observations)];
          expectThat(problems.length === 0, `States (${kind}): ${problems.join('; ')}`);
          expectEqual(run.final.status, 'completed', `openapi.yaml: the ${kind} build completes`);
          const build = run.final.body.build;
          expectEqual(build.cost, KIND_PRICES[kind], `openapi.yaml: the price of a ${kind} build`);
          expectEqual(run.final.body.deliverables.map((d: { kind: string }) => d.kind), [kind], `openapi.yaml: the deliverables of a ${kind} build`);
          const deliverableId = run.final.deliverableIds[0] as string;
          const full = await s.client.op('getDeliverable', { deliverableId });
          expectStatus(full, 200, `openapi.yaml: the ${kind} deliverable in full`);
          expectEqual([full.json.kind, full.json.buildId], [kind, run.buildId], `openapi.yaml: the ${kind} deliverable's kind and build`);
          if (kind === 'social') expectEqual(full.json.kindData?.posts?.map((p: { platform: string }) => p.platform), ['x', 'linkedin'], `${SOCIAL_DEFAULT}: the platforms of the posts`);
          const md = await s.client.op('downloadDeliverable', { deliverableId }, { query: { format: 'md' } });
          expectStatus(md, 200, `Endpoints: the ${kind} deliverable downloads as Markdown`);
        }
        const after = await readBalance(s);
        expectEqual(before.balance - after.balance, ALL_KINDS_COST, 'Limits, Cost: the balance falls by the sum of the builds');
        expectEqual(after.lifetimeUsed - before.lifetimeUsed, ALL_KINDS_COST, 'Limits, Cost: lifetimeUsed rises by the sum of the builds');
      },
    },
    {
      id: 'builds.suite',
      title: 'openapi.yaml: a suite of 2 pages completes with one deliverable per page and costs 2 × the price of its kind',
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['createBuild', 'getBuild'],
      requests: 40,
      run: async (s) => {
        s.spend(2, 'a suite of two pages');
        const target = await s.fixtures.target();
        const before = await readBalance(s);
        const created = await create(s, { targetId: target.id, buildType: 'suite', pages: 2, kind: 'blog', objective: 'A two-page guide to coffee grinders' });
        const after = await readBalance(s);
        expectEqual(before.balance - after.balance, 2, 'openapi.yaml: a suite of 2 blog pages costs 2');
        const run = await observeBuild(s, created.buildId, created.createdAt, s.fineStepMs * 4);
        expectEqual(run.final.status, 'completed', 'openapi.yaml: the suite completes');
        expectEqual(run.final.body.deliverables.map((d: { pageIndex: number }) => d.pageIndex), [0, 1], 'openapi.yaml: one deliverable per page, in page order');
      },
    },
  ];
}
