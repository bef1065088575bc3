import { observeBuilds, pollBuild } from '../build-observer.js';
import type { Check } from '../check.js';
import { blogBody, createTarget } from '../fixtures.js';
import { expectEqual } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

export const FILTERS =
  "openapi.yaml: listBuilds: targetId (Only builds of this target) and status (Only builds in this status) each filter the list, and together both hold: of builds on two targets, finished and not, each list answers exactly those whose target and status are the values asked, newest first";

/** Every status a build has (openapi.yaml, BuildStatus): one none of the builds has shows an empty list. */
const STATUSES = ['pending', 'researching', 'drafting', 'critiquing', 'merging', 'completed', 'failed'];

interface Listed {
  id: string;
  targetId: string;
  status: string;
}

async function createBlog(s: Session, targetId: string, label: string): Promise<string> {
  const reply = await s.client.op('createBuild', {}, { body: blogBody(s, targetId, `Filtered list ${label} (${s.config.runId})`) });
  expectStatus(reply, 202, `${FILTERS}: POST /api/v1/builds (${label})`);
  return reply.json.buildId as string;
}

async function listed(s: Session, query: Record<string, string>): Promise<Listed[]> {
  const reply = await s.client.op('listBuilds', {}, { query: { ...query, limit: '100' } });
  expectStatus(reply, 200, `${FILTERS}: GET /api/v1/builds?${new URLSearchParams(query)}`);
  return reply.json.data as Listed[];
}

async function statusesOf(s: Session, ids: readonly string[]): Promise<string[]> {
  const statuses: string[] = [];
  for (const id of ids) statuses.push((await pollBuild(s, id)).status);
  return statuses;
}

/**
 * The lists that must show exactly `expected` of the builds: by target (the whole list, the
 * targets being new), by status (the builds of this check among the account's, each listed one
 * in that status), and by both.
 */
async function wrongLists(s: Session, builds: readonly Listed[], targets: readonly string[]): Promise<string[]> {
  const present = [...new Set(builds.map((b) => b.status))];
  const values = [...present, ...STATUSES.filter((st) => !present.includes(st)).slice(0, 1)];
  const queries: Array<Record<string, string>> = [
    ...targets.map((targetId) => ({ targetId })),
    ...values.map((status) => ({ status })),
    ...targets.flatMap((targetId) => values.map((status) => ({ targetId, status }))),
  ];
  const ids = new Set(builds.map((b) => b.id));
  const wrong: string[] = [];
  for (const query of queries) {
    const expected = builds.filter((b) => (!query.targetId || b.targetId === query.targetId) && (!query.status || b.status === query.status)).map((b) => b.id);
    const all = await listed(s, query);
    // Newest first: this check's builds, the account's newest, are on the first page.
    const got = (query.targetId ? all : all.filter((b) => ids.has(b.id))).map((b) => b.id);
    const stray = all.filter((b) => (query.status && b.status !== query.status) || (query.targetId && b.targetId !== query.targetId)).map((b) => `${b.id} (${b.status})`);
    if (got.join() !== expected.join() || stray.length) wrong.push(`?${new URLSearchParams(query)}: ${JSON.stringify(got)}${stray.length ? `, listing ${stray.join(', ')}` : ''}; expected ${JSON.stringify(expected)}`);
  }
  return wrong;
}

/**
 * The build list's filters, judged while no status can change: the builds have finished, or the
 * suite holds the simulator's clock (it moves only when the suite moves it), so that builds
 * still pending stay pending while the lists are read.
 */
export function buildFilterChecks(): Check[] {
  return [
    {
      id: 'builds.list-filters',
      title: FILTERS,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['listBuilds'],
      requests: 60,
      run: async (s) => {
        s.spend(3, 'three blog builds on two targets, listed by target and status');
        const targets = [(await createTarget(s, 'filter-a')).id, (await createTarget(s, 'filter-b')).id];
        const first = await createBlog(s, targets[0]!, 'first');
        await observeBuilds(s, [{ buildId: first, createdAt: s.time.now() }], s.fineStepMs * 4);
        // Room in the rate-limit windows for both creations and every read before they start, so
        // that no wait for a new window moves the clock once they are made.
        await s.client.ensureWindow('readWrite', 'createBuild', 2);
        await s.client.ensureWindow('readWrite', 'listBuilds', 30);
        const later = [await createBlog(s, targets[0]!, 'second'), await createBlog(s, targets[1]!, 'third')];
        if (!s.control) await observeBuilds(s, later.map((buildId) => ({ buildId, createdAt: s.time.now() })), s.config.pollIntervalMs);
        const ids = [later[1]!, later[0]!, first];
        const targetOf = [targets[1]!, targets[0]!, targets[0]!];
        for (let attempt = 0; attempt < 3; attempt++) {
          if (attempt > 0) await s.client.ensureWindow('readWrite', 'listBuilds', 30);
          const before = await statusesOf(s, ids);
          const wrong = await wrongLists(s, ids.map((id, i) => ({ id, targetId: targetOf[i]!, status: before[i]! })), targets);
          const after = await statusesOf(s, ids);
          if (after.join() !== before.join()) continue;
          expectEqual(wrong, [], `${FILTERS} (statuses ${before.join(', ')})`);
          return;
        }
        s.skipBecause("the builds' statuses moved during each of three readings of the lists (the clock was moved meanwhile)");
      },
    },
  ];
}
