import type { Check } from '../check.js';
import { newestIds, readBalance } from '../fixtures.js';
import { expectEqual, expectThat } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectStatus } from './expect.js';

const BUNDLES = 'openapi.yaml: GET /api/v1/tokens/bundles lists the bundles on sale, smallest first, each with a distinct id and a positive number of tokens';
const BY_ID = 'openapi.yaml: GET /api/v1/tokens/transactions/{transactionId} answers the transaction as the list shows it';
const PURCHASE = 'openapi.yaml: a purchase answers 201 with a purchase transaction of the bundle\'s tokens; balance and lifetimePurchased grow by them, lifetimeUsed stays, and the ledger lists it first';
const REPLAY = 'openapi.yaml: a purchase replayed with its Idempotency-Key answers 200 with the same transaction and idempotent: true, and buys nothing';

async function bundles(s: Session): Promise<Array<{ id: string; tokens: number; name: string }>> {
  const reply = await s.client.op('listTokenBundles');
  expectStatus(reply, 200, BUNDLES);
  return reply.json.data;
}

/** Bundles, single transactions and purchases (inferred by openapi.yaml; the spec shows no purchase endpoint). */
export function tokenPurchaseChecks(): Check[] {
  return [
    {
      id: 'tokens.bundles',
      title: BUNDLES,
      level: 'strict',
      covers: ['listTokenBundles'],
      requests: 1,
      run: async (s) => {
        const list = await bundles(s);
        expectThat(list.length > 0, `${BUNDLES}: the list is empty`);
        expectEqual(new Set(list.map((b) => b.id)).size, list.length, `${BUNDLES}: distinct ids`);
        const tokens = list.map((b) => b.tokens);
        expectThat(tokens.every((t) => Number.isInteger(t) && t > 0), `${BUNDLES}: tokens are positive integers: got ${JSON.stringify(tokens)}`);
        expectEqual(tokens, [...tokens].sort((a, b) => a - b), `${BUNDLES}: smallest first (tokens)`);
      },
    },
    {
      id: 'tokens.transaction-by-id',
      title: BY_ID,
      level: 'strict',
      covers: ['getTokenTransaction'],
      requests: 4,
      run: async (s) => {
        const newest = await newestIds(s, 'listTokenTransactions', 3);
        if (newest.length === 0) s.skipBecause('the account has no transaction yet to fetch');
        for (const listed of newest) {
          const reply = await s.client.op('getTokenTransaction', { transactionId: listed.id });
          expectStatus(reply, 200, BY_ID);
          expectEqual(reply.json, listed, `${BY_ID}: transaction ${listed.id}`);
        }
      },
    },
    {
      id: 'tokens.purchase',
      title: `${PURCHASE}; ${REPLAY}`,
      level: 'strict',
      groups: ['spend'],
      buys: true,
      covers: ['purchaseTokens', 'getTokenTransaction'],
      requests: 9,
      run: async (s) => {
        const [smallest] = await bundles(s);
        if (!smallest) return s.skipBecause('no bundle is on sale');
        const before = await readBalance(s);
        const idempotencyKey = `${s.config.runId}-purchase`;
        const buy = () => s.client.op('purchaseTokens', {}, { body: { bundleId: smallest.id }, headers: { 'Idempotency-Key': idempotencyKey } });
        const reply = await buy();
        expectStatus(reply, 201, PURCHASE);
        const t = reply.json.transaction;
        expectEqual([t.type, t.amount, t.bundleId, t.buildId], ['purchase', smallest.tokens, smallest.id, null], `${PURCHASE}: type, amount, bundleId, buildId of the transaction`);
        expectEqual(reply.headers.location, `/api/v1/tokens/transactions/${t.id}`, `${PURCHASE}: Location`);
        const expected = { balance: before.balance + smallest.tokens, lifetimePurchased: before.lifetimePurchased + smallest.tokens, lifetimeUsed: before.lifetimeUsed };
        expectEqual(reply.json.balance, expected, `${PURCHASE}: the balance answered`);
        expectEqual(t.balanceAfter, expected.balance, `${PURCHASE}: balanceAfter`);
        expectEqual(await readBalance(s), expected, `${PURCHASE}: GET /api/v1/tokens/balance`);
        const [first] = await newestIds(s, 'listTokenTransactions', 1);
        expectEqual(first, t, `${PURCHASE}: the newest transaction listed`);
        const fetched = await s.client.op('getTokenTransaction', { transactionId: t.id });
        expectEqual(fetched.json, t, `${PURCHASE}: GET of the transaction`);

        const replay = await buy();
        expectStatus(replay, 200, REPLAY);
        expectEqual([replay.json.idempotent, replay.json.transaction], [true, t], `${REPLAY}: idempotent and the transaction`);
        expectEqual(await readBalance(s), expected, `${REPLAY}: the balance after the replay`);
      },
    },
  ];
}
