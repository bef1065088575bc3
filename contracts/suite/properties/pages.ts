import type { Check } from '../check.js';
import { expectSuccess } from '../checks/expect.js';
import { ownedPathValues } from '../checks/owned-ids.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { ContractFailure, expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';

export const DEFAULT_LIMIT = 'openapi.yaml: a list read without limit answers a page of its default size (20): the first 20 items of the whole list, in order, with a nextCursor when there are more';
export const LAST_PAGE = 'openapi.yaml: the last page says it is the last: a page that holds the list\'s last item has nextCursor null (no extra empty page), whether it is full or not';
export const STABLE = 'openapi.yaml: cursors are stable: an item added between two pages makes no item of the walk appear twice or go missing';

const ids = (json: any): string[] => ((json?.data ?? []) as Array<{ id: string }>).map((i) => i.id);

async function page(s: Session, op: OperationInfo, path: Record<string, string>, query: Record<string, string>, rule: string) {
  const reply = await s.client.op(op.id, path, { query });
  expectSuccess(reply, `${rule}: ${op.id}?${new URLSearchParams(query)}`);
  return { ids: ids(reply.json), next: (reply.json?.nextCursor ?? null) as string | null };
}

async function all(s: Session, op: OperationInfo, path: Record<string, string>, rule: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 20; n++) {
    const p = await page(s, op, path, { limit: '100', ...(cursor ? { cursor } : {}) }, rule);
    out.push(...p.ids);
    cursor = p.next;
    if (!cursor) break;
  }
  return out;
}

/** Makes targets of the run until the account has at least `count`: the list whose default page is then full. */
async function fillTargets(s: Session, count: number, have: number): Promise<string[]> {
  const made: string[] = [];
  for (let i = have; i < count; i++) {
    const reply = await s.client.op('createTarget', {}, { body: { ...s.newTargetName('page'), description: 'A target that fills a page.' } });
    expectSuccess(reply, `${DEFAULT_LIMIT}: making targets to fill a page`);
    made.push(String(reply.json.id));
  }
  return made;
}

const pathValues = (s: Session, op: OperationInfo) => ownedPathValues(s, op.path);

/** Lists whose items the run has without waiting for a build. */
const listable = (op: OperationInfo) => op.method === 'GET' && op.parameters.some((p) => p.name === 'limit') && !/\{(deliverableId|buildId)\}/.test(op.path);

function defaultLimit(op: OperationInfo): Check {
  const fill = op.id === 'listTargets';
  return {
    id: `properties.default-limit.${op.id}`,
    title: `${DEFAULT_LIMIT} — ${op.id}`,
    level: 'strict',
    covers: [op.id],
    requests: fill ? 60 : 8,
    run: async (s) => {
      const path = await pathValues(s, op);
      const size = Number(op.parameters.find((p) => p.name === 'limit')?.schema.default ?? 20);
      let whole = await all(s, op, path, DEFAULT_LIMIT);
      const made = fill && whole.length <= size ? await fillTargets(s, size + 1, whole.length) : [];
      try {
        if (made.length) whole = await all(s, op, path, DEFAULT_LIMIT);
        const first = await page(s, op, path, {}, DEFAULT_LIMIT);
        expectEqual(first.ids, whole.slice(0, size), `${DEFAULT_LIMIT}: ${op.id} without limit, of ${whole.length} items`);
        expectThat((first.next !== null) === whole.length > size, `${DEFAULT_LIMIT}: ${op.id} without limit, of ${whole.length} items, answers nextCursor ${JSON.stringify(first.next)}`);
      } finally {
        for (const id of made) await s.client.op('deleteTarget', { targetId: id });
      }
    },
  };
}

function lastPage(op: OperationInfo): Check {
  return {
    id: `properties.last-page.${op.id}`,
    title: `${LAST_PAGE} — ${op.id}`,
    level: 'strict',
    covers: [op.id],
    requests: 10,
    run: async (s) => {
      const path = await pathValues(s, op);
      let whole = await all(s, op, path, LAST_PAGE);
      // Targets the run can make: a list of at least three, so that both last pages are seen.
      if (op.id === 'listTargets' && whole.length < 3 && (await fillTargets(s, 3, whole.length)).length) whole = await all(s, op, path, LAST_PAGE);
      if (whole.length === 0) return s.skipBecause(`${op.id} lists nothing for this account`);
      if (whole.length > 100) return s.skipBecause(`${op.id} lists more than a page of 100`);
      // A full last page (limit = the count), then a last page of one (limit = count - 1).
      const full = await page(s, op, path, { limit: String(whole.length) }, LAST_PAGE);
      expectEqual(full.ids, whole, `${LAST_PAGE}: ${op.id}?limit=${whole.length} of ${whole.length} items`);
      expectEqual(full.next, null, `${LAST_PAGE}: ${op.id}?limit=${whole.length}, a full page holding the last of ${whole.length} items, answers nextCursor`);
      if (whole.length < 2) return;
      const first = await page(s, op, path, { limit: String(whole.length - 1) }, LAST_PAGE);
      expectThat(first.next, `${LAST_PAGE}: ${op.id}?limit=${whole.length - 1} of ${whole.length} items answers no nextCursor`);
      const rest = await page(s, op, path, { limit: String(whole.length - 1), cursor: first.next! }, LAST_PAGE);
      expectEqual(rest.ids, whole.slice(-1), `${LAST_PAGE}: ${op.id} the page after limit=${whole.length - 1}`);
      expectEqual(rest.next, null, `${LAST_PAGE}: ${op.id} the last page, of one item, answers nextCursor`);
    },
  };
}

/** Walks listTargets two at a time, adding a target after the first page. */
function stableWalk(): Check {
  return {
    id: 'properties.stable-pages.listTargets',
    title: `${STABLE} — listTargets`,
    level: 'strict',
    covers: ['listTargets'],
    requests: 40,
    run: async (s) => {
      const op = s.operations.find((o) => o.id === 'listTargets') as OperationInfo;
      const before = await all(s, op, {}, STABLE);
      if (before.length < 4) await fillTargets(s, 4, before.length);
      const original = await all(s, op, {}, STABLE);
      const walked: string[] = [];
      let cursor: string | null = null;
      let added: string | undefined;
      for (let n = 0; n < original.length + 2; n++) {
        const p = await page(s, op, {}, { limit: '2', ...(cursor ? { cursor } : {}) }, STABLE);
        walked.push(...p.ids);
        if (!added) [added] = await fillTargets(s, 1, 0);
        cursor = p.next;
        if (!cursor) break;
      }
      try {
        const twice = walked.filter((id, i) => walked.indexOf(id) !== i);
        if (twice.length) throw new ContractFailure(`${STABLE}: listTargets walked two at a time answered ${twice.join(', ')} twice after a target was added between pages`);
        const missing = original.filter((id) => !walked.includes(id));
        if (missing.length) throw new ContractFailure(`${STABLE}: listTargets walked two at a time skipped ${missing.length} of the ${original.length} targets there were (${missing.slice(0, 3).join(', ')}) after one was added between pages`);
      } finally {
        if (added) await s.client.op('deleteTarget', { targetId: added });
      }
    },
  };
}

export function pageChecks(operations: readonly OperationInfo[]): Check[] {
  const lists = operations.filter(listable);
  return [...lists.map(defaultLimit), ...lists.map(lastPage), stableWalk()];
}
