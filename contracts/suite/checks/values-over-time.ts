import type { Check } from '../check.js';
import { pollBuild } from '../build-observer.js';
import { readBalance } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectSuccess } from './expect.js';

const LEDGER = 'openapi.yaml: the ledger adds up: each transaction\'s balanceAfter is the one before it plus its amount, the newest is the balance, and lifetimeUsed is the charges less the refunds';
export const ENTRIES = 'openapi.yaml: Transaction: amount is signed, negative for a charge and only for a charge; bundleId is the bundle a purchase bought, null for every other entry and for the starting balance';
const OVER_TIME = 'openapi.yaml: a build read over its life keeps its createdAt, its progress never falls, updatedAt moves only when the status changes, and completedAt is set once, at completion';

interface Transaction {
  id: string;
  type: string;
  amount: number;
  balanceAfter: number;
  bundleId: string | null;
}

/** Every transaction of the account, newest first, page by page. */
async function allTransactions(s: Session): Promise<Transaction[]> {
  const all: Transaction[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const reply = await s.client.op('listTokenTransactions', {}, { query: cursor ? { limit: '100', cursor } : { limit: '100' } });
    expectSuccess(reply, `${LEDGER}: the list`);
    all.push(...reply.json.data);
    cursor = reply.json.nextCursor;
    if (!cursor) return all;
  }
  return s.skipBecause('the account has more than 5000 transactions to add up');
}

/** Values derived from others, and values read again later: the ledger, and a build over its life. */
export function valuesOverTimeChecks(): Check[] {
  return [
    {
      id: 'tokens.ledger',
      title: LEDGER,
      level: 'strict',
      covers: ['listTokenTransactions', 'getTokenBalance'],
      requests: 7,
      run: async (s) => {
        const balance = await readBalance(s);
        const ledger = await allTransactions(s);
        expectThat(ledger.length > 0, `${LEDGER}: the account has no transaction`);
        expectEqual(ledger[0]!.balanceAfter, balance.balance, `${LEDGER}: balanceAfter of the newest transaction`);
        for (let i = 0; i + 1 < ledger.length; i++) {
          const [newer, older] = [ledger[i]!, ledger[i + 1]!];
          expectEqual(newer.balanceAfter, older.balanceAfter + newer.amount, `${LEDGER}: balanceAfter of ${newer.type} ${newer.id} after ${older.type} ${older.id} (amount ${newer.amount})`);
        }
        const oldest = ledger.at(-1)!;
        expectEqual(oldest.balanceAfter, oldest.amount, `${LEDGER}: the oldest transaction (${oldest.type}) starts from zero`);
        const sum = (types: string[]) => ledger.filter((t) => types.includes(t.type)).reduce((n, t) => n + t.amount, 0);
        expectEqual(balance.lifetimeUsed, -sum(['build_charge', 'image_charge']) - sum(['build_refund']), `${LEDGER}: lifetimeUsed against the charges and refunds listed`);
        expectEqual(balance.lifetimePurchased, sum(['purchase', 'grant']), `${LEDGER}: lifetimePurchased against the purchases and grants listed`);
        const bundles = new Set(((await s.client.op('listTokenBundles')).json?.data ?? []).map((b: { id: string }) => b.id));
        // A purchase names the bundle it bought (tokens.purchase reads which), or none for a balance not bought from a bundle: the starting one.
        const wrong = ledger.filter((x) => (x.type === 'purchase' ? x.bundleId !== null && !bundles.has(x.bundleId) : x.bundleId !== null) || (x.amount < 0) !== x.type.endsWith('_charge'));
        // The simulator gives the run's fresh account its starting balance as its first entry; elsewhere the oldest entry may be a bundle bought.
        if (s.control && oldest.type === 'purchase' && oldest.bundleId !== null) wrong.push(oldest);
        expectEqual(wrong.map((x) => `${x.type} ${x.id}: amount ${x.amount}, bundleId ${JSON.stringify(x.bundleId)}`), [], `${ENTRIES}: entries with another sign or bundleId`);
      },
    },
    {
      id: 'builds.over-time',
      title: OVER_TIME,
      level: 'strict',
      groups: ['spend', 'wait'],
      covers: ['getBuild'],
      requests: 70,
      run: async (s) => {
        const run = await s.fixtures.blogRun();
        const later = await pollBuild(s, run.buildId);
        const reads = [...run.observations, later].map((o) => o.body.build);
        const problems: string[] = [];
        for (let i = 1; i < reads.length; i++) {
          const [a, b] = [reads[i - 1], reads[i]];
          const at = `read ${i} (${a.status} → ${b.status})`;
          if (b.createdAt !== a.createdAt) problems.push(`${at}: createdAt ${a.createdAt} → ${b.createdAt}`);
          if (b.progress < a.progress) problems.push(`${at}: progress ${a.progress} → ${b.progress}`);
          if (b.status === a.status && b.updatedAt !== a.updatedAt) problems.push(`${at}: updatedAt moved without a status change (${a.updatedAt} → ${b.updatedAt})`);
          if (Date.parse(b.updatedAt) < Date.parse(a.updatedAt)) problems.push(`${at}: updatedAt went back (${a.updatedAt} → ${b.updatedAt})`);
          if (a.completedAt && b.completedAt !== a.completedAt) problems.push(`${at}: completedAt ${a.completedAt} → ${b.completedAt}`);
        }
        for (const [i, b] of reads.entries()) {
          if ((b.status === 'completed') !== (b.completedAt !== null)) problems.push(`read ${i}: status ${b.status} with completedAt ${b.completedAt}`);
          if (b.status === 'completed' && b.progress !== 100) problems.push(`read ${i}: completed with progress ${b.progress}`);
          if (Date.parse(b.updatedAt) < Date.parse(b.createdAt)) problems.push(`read ${i}: updatedAt ${b.updatedAt} before createdAt ${b.createdAt}`);
        }
        expectThat(problems.length === 0, `${OVER_TIME}: ${problems.slice(0, 5).join('; ')}`);
      },
    },
  ];
}
