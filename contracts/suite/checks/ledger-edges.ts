import type { Check } from '../check.js';
import { createTarget, readBalance } from '../fixtures.js';
import { expectEqual } from '../../shared/outcomes.js';
import type { Session } from '../session.js';
import { expectError, expectStatus, expectSuccess } from './expect.js';

const EXACT = 'Errors: 402 INSUFFICIENT_TOKENS only when the balance is below the cost: a build that costs the whole balance is accepted and leaves 0';
const UNKNOWN_BUNDLE = 'openapi.yaml: a purchase of a bundle that is not on sale is 404 NOT_FOUND and buys nothing';
const OTHER_BUNDLE = 'openapi.yaml: an Idempotency-Key already used for a purchase, sent for a different bundle, is 409 CONFLICT and buys nothing';
const NO_KEY = 'openapi.yaml: purchases without an Idempotency-Key are each bought: two answer 201 with two transactions, and the balance grows twice';

/**
 * A suite that costs exactly `tokens` by the price table (openapi.yaml): a page of blog costs 1
 * and of press release 2, each surcharge (deep research, premium quality, images) 1 more; a
 * suite has 2 to 20 pages.
 */
function suiteCosting(tokens: number): Record<string, unknown> | undefined {
  const surcharges = [
    { researchMode: 'standard', qualityMode: 'standard', generateImages: false },
    { researchMode: 'deep', qualityMode: 'standard', generateImages: false },
    { researchMode: 'deep', qualityMode: 'premium', generateImages: false },
    { researchMode: 'deep', qualityMode: 'premium', generateImages: true },
  ];
  for (const [kind, base] of [['press_release', 2], ['blog', 1]] as const) {
    for (let extra = surcharges.length - 1; extra >= 0; extra--) {
      const pages = tokens / (base + extra);
      if (Number.isInteger(pages) && pages >= 2 && pages <= 20) return { buildType: 'suite', kind, pages, ...surcharges[extra] };
    }
  }
  return undefined;
}

async function bundleIds(s: Session): Promise<string[]> {
  const reply = await s.client.op('listTokenBundles');
  expectStatus(reply, 200, 'openapi.yaml: GET /api/v1/tokens/bundles lists the bundles on sale');
  return (reply.json.data as Array<{ id: string }>).map((b) => b.id);
}

const purchase = (s: Session, bundleId: string, key?: string) =>
  s.client.op('purchaseTokens', {}, { body: { bundleId }, ...(key === undefined ? {} : { headers: { 'Idempotency-Key': key } }) });

/** The edges of the ledger: a cost equal to the balance, and purchases that must not be, or must be, bought. */
export function ledgerEdgeChecks(): Check[] {
  return [
    {
      // On the account without tokens: it buys the smallest bundle and spends all of it, so it ends at 0 again.
      id: 'tokens.exact-balance',
      title: EXACT,
      level: 'strict',
      roles: ['empty'],
      groups: ['spend'],
      buys: true,
      covers: ['createBuild', 'purchaseTokens'],
      requests: 6,
      run: async (s) => {
        const [bundle] = await bundleIds(s);
        if (!bundle) return s.skipBecause('no bundle is on sale');
        expectStatus(await s.client.op('purchaseTokens', {}, { as: 'empty', body: { bundleId: bundle } }), 201, EXACT);
        const before = await readBalance(s, 'empty');
        const options = suiteCosting(before.balance);
        if (!options) return s.skipBecause(`no suite of the price table costs exactly the balance (${before.balance})`);
        const target = await createTarget(s, 'exact-balance', 'empty');
        const reply = await s.client.op('createBuild', {}, { as: 'empty', body: { ...options, targetId: target.id, objective: 'A suite of the whole balance' } });
        expectSuccess(reply, EXACT);
        const after = { balance: 0, lifetimePurchased: before.lifetimePurchased, lifetimeUsed: before.lifetimeUsed + before.balance };
        expectEqual(await readBalance(s, 'empty'), after, `${EXACT}: the balance after it`);
      },
    },
    {
      id: 'tokens.purchase-unknown-bundle',
      title: UNKNOWN_BUNDLE,
      level: 'strict',
      covers: ['purchaseTokens'],
      requests: 4,
      run: async (s) => {
        const ids = await bundleIds(s);
        const before = await readBalance(s);
        const reply = await purchase(s, `${ids.join('-')}-not-on-sale`, `${s.config.runId}-unknown-bundle`);
        expectError(reply, 404, 'NOT_FOUND', UNKNOWN_BUNDLE);
        expectEqual(await readBalance(s), before, `${UNKNOWN_BUNDLE}: the balance`);
      },
    },
    {
      id: 'tokens.purchase-key-other-bundle',
      title: OTHER_BUNDLE,
      level: 'strict',
      groups: ['spend'],
      buys: true,
      covers: ['purchaseTokens'],
      requests: 5,
      run: async (s) => {
        const [first, second] = await bundleIds(s);
        if (!first || !second) return s.skipBecause('fewer than two bundles are on sale');
        const key = `${s.config.runId}-other-bundle`;
        expectStatus(await purchase(s, first, key), 201, OTHER_BUNDLE);
        const before = await readBalance(s);
        const reply = await purchase(s, second, key);
        expectError(reply, 409, 'CONFLICT', OTHER_BUNDLE);
        expectEqual(await readBalance(s), before, `${OTHER_BUNDLE}: the balance`);
      },
    },
    {
      id: 'tokens.purchase-without-key',
      title: NO_KEY,
      level: 'strict',
      groups: ['spend'],
      buys: true,
      covers: ['purchaseTokens'],
      requests: 5,
      run: async (s) => {
        const [bundle] = await bundleIds(s);
        if (!bundle) return s.skipBecause('no bundle is on sale');
        const before = await readBalance(s);
        const one = await purchase(s, bundle);
        const two = await purchase(s, bundle);
        expectStatus(one, 201, NO_KEY);
        expectStatus(two, 201, NO_KEY);
        const bought = [one.json.transaction, two.json.transaction];
        expectEqual(bought[0].id === bought[1].id, false, `${NO_KEY}: two transactions`);
        const after = await readBalance(s);
        expectEqual(after.balance - before.balance, bought[0].amount + bought[1].amount, `${NO_KEY}: the balance grows by both`);
      },
    },
  ];
}
