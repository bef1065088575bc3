import { pollBuild } from '../build-observer.js';
import type { Check } from '../check.js';
import { createTarget, readBalance } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

/**
 * Several builds of one account moving at once, as a CI job or a content team makes them:
 * the refunds of builds that fail at different times, and the build list filtered by target
 * and status while the builds move through the pipeline.
 */
export const REFUNDS = 'DESIGN: failure, openapi.yaml: BuildFailure: each failed build is refunded as it fails: at every moment the balance is what was bought less the builds not failed, and the refunds are in the ledger in the order the builds failed (newest first)';
export const BOTH_FILTERS = 'openapi.yaml: listBuilds: targetId and status filter together (both hold) and alone, at every moment of the builds\' pipeline: exactly the builds of the unfiltered list whose fields are the values asked';

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

interface Listed {
  id: string;
  targetId: string;
  status: string;
}

async function listed(s: Session, query: Record<string, string>, rule: string): Promise<Listed[]> {
  const reply = await s.client.op('listBuilds', {}, { query: { ...query, limit: '100' } });
  expectStatus(reply, 200, `${rule}: GET /api/v1/builds?${new URLSearchParams(query)}`);
  // Newest first: the builds of this check, the account's newest, are on the first page.
  return reply.json.data as Listed[];
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
      id: 'builds.list-both-filters',
      title: BOTH_FILTERS,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['listBuilds'],
      requests: 600,
      run: async (s) => {
        s.spend(4 * BLOG_PRICE, 'builds of two targets listed while they move');
        const targets = [await createTarget(s, 'filters-one'), await createTarget(s, 'filters-two')];
        // The second target's build starts first, so that for a while it is alone in its status.
        const ids = [await createBlog(s, targets[1]!.id, `Filter order ${s.config.runId} first`)];
        for (let round = 0; round < 200 && (await pollBuild(s, ids[0]!)).status === 'pending'; round++) await s.time.sleep(s.fineStepMs);
        for (const n of [1, 2, 3]) ids.push(await createBlog(s, targets[0]!.id, `Filter order ${s.config.runId} ${n}`));
        const judged = new Set<string>();
        for (let round = 0; round < 400; round++) {
          await s.client.ensureWindow('readWrite', 'listBuilds', 40);
          const now = [];
          for (const id of ids) now.push((await pollBuild(s, id)).status);
          // The lists are judged once per combination of statuses: a moment like the last one adds nothing.
          if (judged.has(now.join())) {
            if (now.every((st) => st === 'completed' || st === 'failed')) break;
            await s.time.sleep(s.fineStepMs * 2);
            continue;
          }
          const seen = await whileStill(s, ids, async () => {
            const all = (await listed(s, {}, BOTH_FILTERS)).filter((b) => ids.includes(b.id));
            const wrong: string[] = [];
            const statuses = [...new Set(all.map((b) => b.status))];
            const queries: Array<Record<string, string>> = [
              ...statuses.map((status) => ({ status })),
              ...targets.flatMap((t) => [{ targetId: t.id }, ...statuses.map((status) => ({ targetId: t.id, status }))]),
            ];
            for (const query of queries) {
              const expected = all.filter((b) => (!query.targetId || b.targetId === query.targetId) && (!query.status || b.status === query.status)).map((b) => b.id);
              const got = (await listed(s, query, BOTH_FILTERS)).filter((b) => ids.includes(b.id)).map((b) => b.id);
              if (got.join() !== expected.join()) wrong.push(`?${new URLSearchParams(query)}: ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
            }
            return wrong;
          });
          if (seen) {
            expectEqual(seen.value, [], `${BOTH_FILTERS} (statuses ${seen.statuses.join(', ')})`);
            judged.add(seen.statuses.join());
            if (seen.statuses.every((st) => st === 'completed' || st === 'failed')) break;
          }
          await s.time.sleep(s.fineStepMs * 2);
        }
        expectThat(judged.size > 1, `${BOTH_FILTERS}: the lists were judged at ${judged.size} moment(s) of the builds' pipeline, not while they moved`);
      },
    },
  ];
}
