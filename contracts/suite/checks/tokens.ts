import type { Check } from '../check.js';
import { blogBody, createTarget, readBalance } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError } from './expect.js';

const INSUFFICIENT = 'Errors: 402 INSUFFICIENT_TOKENS carries required, available and shortfall = required − available';

/** A build that costs far more than any test account holds (openapi.yaml prices: 20 × (2 + 1 + 1 + 1)). */
const COSTLIEST_BUILD = { buildType: 'suite', pages: 20, kind: 'press_release', researchMode: 'deep', qualityMode: 'premium', generateImages: true };
const COSTLIEST_PRICE = 100;

export function tokenChecks(): Check[] {
  return [
    {
      id: 'tokens.balance',
      title: 'Resources, Token balance: balance, lifetimePurchased and lifetimeUsed are integers',
      level: 'documented',
      covers: ['getTokenBalance'],
      requests: 1,
      run: async (s) => {
        const balance = await readBalance(s);
        for (const field of ['balance', 'lifetimePurchased', 'lifetimeUsed'] as const) {
          expectThat(Number.isInteger(balance[field]), `Resources, Token balance: ${field} is an integer: got ${JSON.stringify(balance[field])}`);
        }
      },
    },
    {
      id: 'tokens.read-only',
      title: 'Authentication 2: a key with only svc:read reads the balance',
      level: 'documented',
      roles: ['readOnly'],
      covers: ['getTokenBalance'],
      requests: 1,
      run: async (s) => void (await readBalance(s, 'readOnly')),
    },
    {
      id: 'tokens.blog-cost',
      title: 'Limits, Cost: a standard blog build with research costs 1 token: balance falls by 1, lifetimeUsed rises by 1',
      level: 'documented',
      groups: ['spend'],
      covers: ['createBuild', 'getTokenBalance'],
      requests: 6,
      run: async (s) => {
        const { before, after } = await s.fixtures.blogBuild();
        expectEqual(before.balance - after.balance, 1, 'Limits, Cost: balance change of a standard blog build');
        expectEqual(after.lifetimeUsed - before.lifetimeUsed, 1, 'Limits, Cost: lifetimeUsed change of a standard blog build');
        if (s.strict) expectEqual(after.lifetimePurchased, before.lifetimePurchased, 'openapi.yaml: a build leaves lifetimePurchased alone');
      },
    },
    {
      id: 'tokens.charge-transaction',
      title: 'openapi.yaml: the charge is a build_charge transaction of −cost for the build, listed first, with the balance after it',
      level: 'strict',
      groups: ['spend'],
      covers: ['listTokenTransactions'],
      requests: 6,
      run: async (s) => {
        const build = await s.fixtures.blogBuild();
        const added = (build.transactionsAfter ?? []).filter((t) => !(build.transactionsBefore ?? []).includes(t.id));
        expectEqual(added.length, 1, 'openapi.yaml: one new transaction for one build');
        const [charge] = added;
        expectEqual([charge.type, charge.amount, charge.buildId], ['build_charge', -1, build.buildId], 'openapi.yaml: the transaction of the build (type, amount, buildId)');
        expectEqual(charge.balanceAfter, build.after.balance, 'openapi.yaml: balanceAfter of the newest transaction is the balance');
        expectEqual(build.transactionsAfter?.[0]?.id, charge.id, 'openapi.yaml: transactions are listed newest first');
      },
    },
    {
      id: 'tokens.insufficient',
      title: `${INSUFFICIENT}, and charges nothing`,
      level: 'documented',
      roles: ['empty'],
      covers: ['createBuild'],
      requests: 4,
      run: async (s) => {
        const before = await readBalance(s, 'empty');
        if (before.balance >= 1) s.skipBecause(`the empty-balance key's account holds ${before.balance} token(s); a blog build would be charged`);
        const target = await createTarget(s, 'empty', 'empty');
        const reply = await s.client.op('createBuild', {}, { as: 'empty', body: blogBody(s, target.id), headers: { 'Idempotency-Key': `${s.config.runId}-empty` } });
        expectInsufficient(s, reply, before.balance);
        const after = await readBalance(s, 'empty');
        expectEqual(after, before, 'Errors: a refused build charges nothing (balance object unchanged)');
      },
    },
    {
      id: 'tokens.insufficient-partial',
      title: `${INSUFFICIENT}, also when some tokens are available`,
      level: 'strict',
      simulator: 'tokens that cost nothing: a refused build of 100 tokens must not be charged on a real account',
      covers: ['createBuild'],
      requests: 4,
      run: async (s) => {
        const before = await readBalance(s);
        if (before.balance >= COSTLIEST_PRICE || before.balance === 0) s.skipBecause(`the balance (${before.balance}) must lie between 1 and ${COSTLIEST_PRICE - 1}`);
        const target = await s.fixtures.target();
        const reply = await s.client.op('createBuild', {}, { body: { ...COSTLIEST_BUILD, targetId: target.id, objective: 'A costly suite' } });
        expectInsufficient(s, reply, before.balance, COSTLIEST_PRICE);
        expectEqual(await readBalance(s), before, 'Errors: a refused build charges nothing (balance object unchanged)');
      },
    },
  ];
}

function expectInsufficient(s: Session, reply: Awaited<ReturnType<Session['client']['op']>>, available: number, required?: number): void {
  expectError(reply, 402, 'INSUFFICIENT_TOKENS', INSUFFICIENT);
  const d = reply.json.details ?? {};
  for (const field of ['required', 'available', 'shortfall']) expectThat(Number.isInteger(d[field]), `${INSUFFICIENT}: details.${field} is an integer: got ${JSON.stringify(d)}`);
  expectEqual(d.available, available, `${INSUFFICIENT}: available is the balance`);
  expectThat(d.required > d.available, `${INSUFFICIENT}: required exceeds available: got ${JSON.stringify(d)}`);
  expectEqual(d.shortfall, d.required - d.available, `${INSUFFICIENT}: shortfall`);
  if (required !== undefined && s.strict) expectEqual(d.required, required, 'openapi.yaml: required is the build cost of the price table');
}

