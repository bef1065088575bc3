import type { Check, Group } from '../check.js';
import type { Reply } from '../http-client.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { ContractFailure, expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectSuccess } from './expect.js';
import { ownedPathValues } from './owned-ids.js';

const PAGE = 'openapi.yaml: limit bounds a page and cursor continues it: limit=1 answers the first item and a nextCursor, and that cursor answers the second';
const FORMAT = 'Endpoints: the download is in the chosen format: format=html answers HTML markup, format=md answers Markdown, not the same file';
const FORMAT_REQUIRED = 'Endpoints: the download needs its format: without format it is refused (openapi.yaml, strict: 400 VALIDATION_ERROR)';

function needsBuild(op: OperationInfo): Group[] | undefined {
  return /\{(deliverableId|buildId)\}/.test(op.path) ? ['spend', 'wait'] : undefined;
}

async function list(s: Session, op: OperationInfo, path: Record<string, string>, query: Record<string, string>): Promise<Reply> {
  const reply = await s.client.op(op.id, path, { query });
  expectSuccess(reply, `openapi.yaml: ${op.id} with ${new URLSearchParams(query)}`);
  expectThat(Array.isArray(reply.json?.data), `openapi.yaml: ${op.id} answers { data }: got ${reply.text.slice(0, 200)}`);
  return reply;
}

/** The ids of the pages a list's cursors lead to, from the first, until nextCursor is null (at most `maxPages`). */
async function walk(s: Session, op: OperationInfo, path: Record<string, string>, query: Record<string, string>, limit: number, maxPages: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const reply = await list(s, op, path, { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
    seen.push(...ids(reply));
    cursor = reply.json.nextCursor ?? null;
    if (!cursor) break;
  }
  return seen;
}

const ids = (reply: Reply): string[] => (reply.json.data as Array<{ id: string }>).map((item) => item.id);

/**
 * The effect of every list parameter, with values chosen so that a server that ignores one
 * fails: a page of one where there are more, the cursor's next page, and each filter with a
 * value that some listed items have and others do not (or, if none separates them, a value
 * none has, which must answer an empty page).
 */
export function parameterChecks(operations: readonly OperationInfo[]): Check[] {
  const checks: Check[] = [];
  for (const op of operations) {
    if (op.method !== 'GET' || !op.parameters.some((p) => p.name === 'limit')) continue;
    const base = { level: 'strict' as const, groups: needsBuild(op), covers: [op.id], requests: 30 };
    checks.push({
      ...base,
      id: `parameters.page.${op.id}`,
      title: `${PAGE} — ${op.method} ${op.path} (${op.id})`,
      run: async (s) => {
        const path = await ownedPathValues(s, op.path);
        const all = ids(await list(s, op, path, { limit: '100' }));
        const first = await list(s, op, path, { limit: '1' });
        expectEqual(ids(first), all.slice(0, 1), `${PAGE}: ${op.id} limit=1`);
        if (all.length < 2) return;
        const cursor = first.json.nextCursor;
        expectThat(typeof cursor === 'string' && cursor.length > 0, `${PAGE}: ${op.id} limit=1 of ${all.length} items answers a nextCursor: got ${JSON.stringify(cursor)}`);
        const second = await list(s, op, path, { limit: '1', cursor });
        expectEqual(ids(second), all.slice(1, 2), `${PAGE}: ${op.id} the page after the cursor`);
        // Every page, not the first two: pages of two walked to the end are the whole list, in order.
        expectEqual(await walk(s, op, path, {}, 2, Math.ceil(all.length / 2) + 1), all, `${PAGE}: ${op.id} every page of two, cursor after cursor`);
      },
    });
    const bounds = `openapi.yaml: limit outside 1 to 100, or a cursor the server did not issue, gets 400 VALIDATION_ERROR naming it — ${op.method} ${op.path} (${op.id})`;
    checks.push({
      ...base,
      id: `parameters.bounds.${op.id}`,
      title: bounds,
      run: async (s) => {
        const path = await ownedPathValues(s, op.path);
        const queries: Array<Record<string, string>> = [{ limit: '0' }, { limit: '101' }, { limit: 'ten' }, { cursor: 'not-a-cursor-of-ours' }];
        for (const query of queries) {
          const reply = await s.client.op(op.id, path, { query });
          const [name] = Object.keys(query) as [string];
          expectError(reply, 400, 'VALIDATION_ERROR', `${bounds}: ${new URLSearchParams(query)}`);
          const named = JSON.stringify(reply.json?.details ?? {});
          expectThat(named.includes(`query.${name}`), `${bounds}: ${new URLSearchParams(query)}: the details name query.${name}: got ${named.slice(0, 200)}`);
        }
      },
    });
    for (const param of op.parameters.filter((p) => p.in === 'query' && p.name !== 'limit' && p.name !== 'cursor')) {
      const rule = `openapi.yaml: the ${param.name} filter of ${op.id} answers exactly the items whose ${param.name} is the value asked`;
      checks.push({
        ...base,
        id: `parameters.filter.${op.id}.${param.name}`,
        title: `${rule} — ${op.method} ${op.path}`,
        run: async (s) => {
          const path = await ownedPathValues(s, op.path);
          const items = (await list(s, op, path, { limit: '100' })).json.data as Array<Record<string, unknown>>;
          const present = [...new Set(items.map((item) => item[param.name]).filter((v): v is string => typeof v === 'string'))];
          // A value that separates, best one whose items have others between them (a cursor that
          // forgot the filter then shows), with the most items (so that its pages can be walked).
          const count = (v: string) => items.filter((item) => item[param.name] === v).length;
          const interleaved = (v: string) => {
            const at = items.flatMap((item, i) => (item[param.name] === v ? [i] : []));
            return at.length > 1 && at.at(-1)! - at[0]! >= at.length ? 0 : 1;
          };
          const separating = present.filter((v) => items.some((item) => item[param.name] !== v)).sort((a, b) => interleaved(a) - interleaved(b) || count(b) - count(a))[0];
          const absent = Array.isArray(param.schema.enum) ? (param.schema.enum as string[]).find((v) => !present.includes(v)) : s.uuid();
          const value = separating ?? absent ?? present[0];
          if (value === undefined) return s.skipBecause(`no value of ${param.name} to filter by: ${op.id} lists none for this account`);
          const filtered = await s.client.op(op.id, path, { query: { [param.name]: value, limit: '100' } });
          const expected = items.filter((item) => item[param.name] === value).map((item) => item.id);
          if (expected.length === 0 && filtered.status === 404) return; // an unknown target to filter by may be refused
          expectSuccess(filtered, `${rule} (${param.name}=${value})`);
          expectEqual(ids(filtered), expected, `${rule}: ${op.id}?${param.name}=${value} (of ${items.length} listed)`);
          // The filter holds on every page its cursors lead to, not only the first.
          if (expected.length > 1) expectEqual(await walk(s, op, path, { [param.name]: value }, 2, Math.ceil(expected.length / 2) + 1), expected, `${rule}: ${op.id}?${param.name}=${value} page by page (limit=2, each nextCursor)`);
        },
      });
    }
  }
  checks.push(downloadFormat(), downloadWithoutFormat());
  return checks;
}

function downloadFormat(): Check {
  return {
    id: 'parameters.download-format',
    title: FORMAT,
    level: 'documented',
    groups: ['spend', 'wait'],
    covers: ['downloadDeliverable'],
    requests: 68,
    run: async (s) => {
      const { id } = await s.fixtures.deliverable();
      const md = await s.client.op('downloadDeliverable', { deliverableId: id }, { query: { format: 'md' } });
      const html = await s.client.op('downloadDeliverable', { deliverableId: id }, { query: { format: 'html' } });
      expectSuccess(md, `${FORMAT} (md)`);
      expectSuccess(html, `${FORMAT} (html)`);
      expectThat(/<(p|h[1-6]|article|html|body|ul|div|section)\b[^>]*>/i.test(html.text), `${FORMAT}: format=html has HTML markup: got ${JSON.stringify(html.text.slice(0, 120))}`);
      // Markdown may hold inline HTML, but a Markdown file is not an HTML document.
      expectThat(!/^\s*<(!doctype|html|head|body|article|section|div|p|h[1-6])\b/i.test(md.text), `${FORMAT}: format=md is Markdown, not an HTML document: got ${JSON.stringify(md.text.slice(0, 120))}`);
      if (md.text === html.text) throw new ContractFailure(`${FORMAT}: md and html answered the same file`);
    },
  };
}

function downloadWithoutFormat(): Check {
  return {
    id: 'parameters.download-format-required',
    title: FORMAT_REQUIRED,
    level: 'documented',
    groups: ['spend', 'wait'],
    covers: ['downloadDeliverable'],
    requests: 66,
    run: async (s) => {
      const { id } = await s.fixtures.deliverable();
      const reply = await s.client.op('downloadDeliverable', { deliverableId: id });
      if (s.strict) return expectError(reply, 400, 'VALIDATION_ERROR', FORMAT_REQUIRED);
      if (reply.status < 400 || reply.status >= 500) throw new ContractFailure(`${FORMAT_REQUIRED}: expected a 4xx refusal, got ${reply.status} ${reply.text.slice(0, 160)}`);
    },
  };
}
