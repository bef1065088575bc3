import { pollBuild } from '../build-observer.js';
import type { Check } from '../check.js';
import { readBalance } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

/**
 * Several builds of one account moving at once, as a CI job or a content team makes them:
 * the refunds of builds that fail at different times, and of one at the instant it fails.
 */
export const REFUNDS = 'DESIGN: failure, openapi.yaml: BuildFailure: each failed build is refunded as it fails: at every moment the balance is what was bought less the builds not failed, and the refunds are in the ledger in the order the builds failed (newest first)';

export const REFUND_AT_ONCE = 'DESIGN: failure, openapi.yaml: BuildFailure: a failed build is refunded as it fails: read at the very instant it fails, the build is failed and the balance has its tokens back';

const BLOG_PRICE = 1;
/** The stages the failing builds fail at, in the order of creation: early, late, in between. */
const FAIL_AT = ['researching', 'merging', 'critiquing'] as const;

async function createBlog(s: Session, targetId: string, objective: string): Promise<string> {
  const reply = await s.client.op('createBuild', {}, { body: { targetId, kind: 'blog', buildType: 'single', objective, researchPolicy: 'required' } });
  expectStatus(reply, 202, `openapi.yaml: POST /api/v1/builds accepts a blog build (${objective})`);
  return reply.json.buildId as string;
}

/** The statuses of the builds, read twice around `between`: the result of `between` when nothing moved meanwhile. */
async function whileStill<T>(s: Session, ids: readonly string[], between: () => Promise<T>): Promise<{ statuses: string[]; value: T } | undefined> {
  const read = async () => {
    const statuses: string[] = [];
    for (const id of ids) statuses.push((await pollBuild(s, id)).status);
    return statuses;
  };
  const before = await read();
  const value = await between();
  const after = await read();
  return before.join() === after.join() ? { statuses: after, value } : undefined;
}

/**
 * When a build marked `[fail:merging]` fails, once it is merging: the simulator fails a marked
 * build half-way through the stage (docs/guides/faults-and-clocks.md), and merging, the last
 * stage, ends at the build's estimatedCompletionAt.
 */
function mergingFailureAt(build: any): number | undefined {
  const merging = Array.isArray(build?.stages) ? build.stages.find((st: { stage: string }) => st.stage === 'merging') : undefined;
  if (build?.status !== 'merging' || typeof merging?.startedAt !== 'string') return undefined;
  return Math.floor((Date.parse(merging.startedAt) + Date.parse(build.estimatedCompletionAt)) / 2);
}

export function buildsTogetherChecks(): Check[] {
  return [
    {
      id: 'builds.refunds-in-time',
      title: REFUNDS,
      level: 'strict',
      groups: ['spend', 'wait'],
      simulator: 'makes builds fail with the [fail:<stage>] magic input of their objective, on a clock the suite moves',
      covers: ['createBuild', 'getTokenBalance', 'listTokenTransactions'],
      requests: 400,
      run: async (s) => {
        if (!s.seesEveryStatus) s.skipBecause('needs the simulator: failing builds on a clock the suite moves');
        s.spend(FAIL_AT.length * BLOG_PRICE, 'builds that fail (refunded)');
        const target = await s.fixtures.target();
        const before = await readBalance(s);
        const ids: string[] = [];
        for (const stage of FAIL_AT) ids.push(await createBlog(s, target.id, `Refund order ${s.config.runId} [fail:${stage}]`));
        const charged = before.balance - FAIL_AT.length * BLOG_PRICE;
        for (let round = 0; round < 400; round++) {
          await s.client.ensureWindow('readWrite', 'getBuild', 2 * ids.length + 2);
          const seen = await whileStill(s, ids, () => readBalance(s));
          if (seen) {
            const failed = seen.statuses.filter((st) => st === 'failed').length;
            expectThat(seen.statuses.every((st) => st !== 'completed'), `${REFUNDS}: a build marked to fail completed (${seen.statuses.join(', ')})`);
            expectEqual(seen.value.balance, charged + failed * BLOG_PRICE, `${REFUNDS}: the balance with ${failed} of ${ids.length} builds failed (${seen.statuses.join(', ')})`);
            if (failed === ids.length) break;
          }
          // Steps of a few polls: the builds fail stages apart, so each failure is still seen alone.
          await s.time.sleep(s.fineStepMs * 4);
        }
        const builds = [];
        for (const id of ids) builds.push((await pollBuild(s, id)).body.build);
        expectEqual(builds.map((b) => b.status), ids.map(() => 'failed'), `${REFUNDS}: every build marked to fail ends failed`);
        const ledger = await s.client.op('listTokenTransactions', {}, { query: { type: 'build_refund', limit: '100' } });
        expectStatus(ledger, 200, `${REFUNDS}: GET /api/v1/tokens/transactions?type=build_refund`);
        const refunds = (ledger.json.data as Array<{ buildId?: string; createdAt: string }>).filter((t) => t.buildId && ids.includes(t.buildId));
        expectEqual(refunds.length, ids.length, `${REFUNDS}: one refund per failed build`);
        const order = [...refunds].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
        expectEqual(refunds.map((t) => t.buildId), order.map((t) => t.buildId), `${REFUNDS}: refunds newest first (${refunds.map((t) => t.createdAt).join(', ')})`);
      },
    },
    {
      id: 'builds.refund-at-failure',
      title: REFUND_AT_ONCE,
      level: 'strict',
      groups: ['spend', 'wait'],
      simulator: 'makes a build fail half-way through merging with the [fail:merging] magic input, on a clock the suite moves',
      covers: ['getBuild', 'getTokenBalance'],
      requests: 60,
      run: async (s) => {
        if (!s.seesEveryStatus || !s.control) s.skipBecause('needs the simulator: a failing build on a clock the suite moves');
        s.spend(BLOG_PRICE, 'a build that fails (refunded)');
        const target = await s.fixtures.target();
        // Room in the rate-limit window for every poll, so that no wait for a new one moves the clock past the failure.
        await s.client.ensureWindow('readWrite', 'getBuild', 50);
        const before = await readBalance(s);
        const id = await createBlog(s, target.id, `Refund at once ${s.config.runId} [fail:merging]`);
        // A poll a fine step apart sees merging before the build fails half-way through it.
        let build = (await pollBuild(s, id)).body.build;
        for (let round = 0; round < 200 && build.status !== 'merging' && build.status !== 'failed'; round++) {
          await s.time.sleep(s.fineStepMs);
          build = (await pollBuild(s, id)).body.build;
        }
        const failsAt = mergingFailureAt(build);
        if (failsAt === undefined) return s.skipBecause(`the build marked to fail in merging was not seen merging (${build.status})`);
        // The instant before the failure, then the instant of it: the balance follows the status.
        for (const instant of [failsAt - 1, failsAt]) {
          if (instant > s.time.now()) await s.control!.reach(instant);
          const { statuses, value } = (await whileStill(s, [id], () => readBalance(s))) ?? s.skipBecause('the build moved while the balance was read');
          const failed = statuses[0] === 'failed' ? 1 : 0;
          expectEqual(value.balance, before.balance - BLOG_PRICE + failed * BLOG_PRICE, `${REFUND_AT_ONCE} (status ${statuses[0]} at ${new Date(instant).toISOString()}, ${instant - failsAt} ms from the failure)`);
        }
      },
    },
  ];
}
