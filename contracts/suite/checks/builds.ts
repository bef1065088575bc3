import { deliverableTimingProblems, orderProblems, skippedStatuses, STATUS_ORDER } from '../build-observer.js';
import type { Check } from '../check.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import { pollBuild } from '../build-observer.js';
import { KIND_PRICES } from './build-kinds.js';

const ORDER = 'States: only the documented statuses appear, in the documented order, and polling ends in completed or failed';
const NO_SKIP = `States: no status is skipped (${STATUS_ORDER.join(' → ')})`;
const DELIVERABLES = 'States: deliverables appear on the build exactly when it completes';
const PRICE_SHOWN = 'openapi.yaml: BuildCreate: the cost is (kind price + 1 for deep research + 1 for premium quality + 1 for image generation) per page, of the options the build shows';
const TERMINAL = 'States: completed is terminal: later polls show the same status and deliverables';

export function buildChecks(): Check[] {
  const polled = { groups: ['spend' as const, 'wait' as const], covers: ['getBuild'], requests: 60 };
  return [
    {
      ...polled,
      id: 'builds.order',
      title: ORDER,
      level: 'documented',
      run: async (s) => {
        const run = await s.fixtures.blogRun();
        const problems = orderProblems(run.observations);
        expectThat(problems.length === 0, `${ORDER}: ${problems.join('; ')} (seen: ${run.observations.map((o) => o.status).join(', ')})`);
      },
    },
    {
      ...polled,
      id: 'builds.no-skip',
      title: NO_SKIP,
      level: 'documented',
      run: async (s) => {
        if (!s.seesEveryStatus) s.skipBecause('needs a clock the suite moves and a pipeline of finite speed (the simulator, not instant): a 30-second poller cannot tell a skipped status from a missed one');
        const run = await s.fixtures.blogRun();
        const problems = skippedStatuses(run);
        expectThat(problems.length === 0, `${NO_SKIP}: ${problems.join('; ')} (seen: ${run.observations.map((o) => o.status).join(', ')})`);
      },
    },
    {
      ...polled,
      id: 'builds.deliverables-timing',
      title: DELIVERABLES,
      level: 'documented',
      run: async (s) => {
        const run = await s.fixtures.blogRun();
        const problems = deliverableTimingProblems(run.observations);
        expectThat(problems.length === 0, `${DELIVERABLES}: ${problems.join('; ')}`);
        if (s.strict && run.final.status === 'completed') expectEqual(run.final.deliverableIds.length, 1, 'openapi.yaml: a single build has one deliverable');
      },
    },
    {
      ...polled,
      id: 'builds.completed-terminal',
      title: TERMINAL,
      level: 'documented',
      requests: 63,
      run: async (s) => {
        const run = await s.fixtures.blogRun();
        if (run.final.status !== 'completed') s.skipBecause(`the blog build ended ${run.final.status}`);
        for (const wait of [s.control ? 10 * 60_000 : s.config.pollIntervalMs, s.control ? 60 * 60_000 : 0]) {
          await s.time.sleep(wait);
          const later = await pollBuild(s, run.buildId);
          expectEqual(later.status, 'completed', `${TERMINAL}: status ${wait / 1000} s later`);
          expectEqual(later.deliverableIds, run.final.deliverableIds, `${TERMINAL}: deliverables ${wait / 1000} s later`);
        }
      },
    },
    {
      ...polled,
      id: 'builds.echo',
      title: 'openapi.yaml: the build echoes its request, its options left out as the price it was charged says, and once completed shows its cost, progress 100 and completedAt',
      level: 'strict',
      run: async (s) => {
        const run = await s.fixtures.blogRun();
        const build = run.final.body.build;
        const sent = (await s.fixtures.blogBuild()).body;
        expectEqual([build.id, build.targetId, build.kind, build.buildType, build.objective, build.researchPolicy], [run.buildId, sent.targetId, sent.kind, sent.buildType, sent.objective, sent.researchPolicy], 'openapi.yaml: id, targetId, kind, buildType, objective, researchPolicy');
        expectEqual(build.cost, 1, 'openapi.yaml: cost of a standard blog build');
        expectEqual(['pressRelease', 'socialPlatforms', 'libraryItemIds'].filter((f) => f in build), [], 'openapi.yaml: Build: options present only when given at creation (a blog build sent without them)');
        // Options left out are shown as the build took them: the price of what it shows is what it cost.
        const shown = (KIND_PRICES[build.kind] ?? NaN) + Number(build.researchMode === 'deep') + Number(build.qualityMode === 'premium') + Number(build.generateImages === true);
        expectEqual(shown * build.pages, build.cost, `${PRICE_SHOWN} (researchMode ${build.researchMode}, qualityMode ${build.qualityMode}, generateImages ${build.generateImages}, pages ${build.pages})`);
        if (build.status === 'completed') {
          expectEqual(build.progress, 100, 'openapi.yaml: progress of a completed build');
          expectThat(typeof build.completedAt === 'string', `openapi.yaml: completedAt of a completed build: got ${JSON.stringify(build.completedAt)}`);
          expectThat(build.stages.every((st: { status: string }) => st.status === 'done'), `openapi.yaml: every stage done: got ${JSON.stringify(build.stages)}`);
        }
      },
    },
  ];
}
