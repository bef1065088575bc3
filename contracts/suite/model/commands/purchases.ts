import type { ApiModel } from '../model.js';
import type { World } from '../world.js';
import { expectBalance, expectOk, expectRefused, fail, keyOf, pick, seen, type ModelCommand } from './common.js';

const PURCHASE = 'openapi.yaml: a purchase answers 201 with a purchase transaction of the bundle\'s tokens; balance and lifetimePurchased grow by them';
const REPLAY = 'openapi.yaml: a purchase replayed with its Idempotency-Key within 24 hours answers 200 with the same transaction and idempotent: true, and buys nothing';
const CONFLICT = 'openapi.yaml: the Idempotency-Key of a purchase used again for a different bundle is 409 CONFLICT, and buys nothing';
const WINDOW_MS = 24 * 60 * 60 * 1000;

export type PurchaseKey = { mode: 'fresh' } | { mode: 'reuse'; n: number; sameBundle: boolean };

/** A token bundle bought (the simulator only: elsewhere it is real money). */
export class Purchase implements ModelCommand {
  constructor(
    readonly account: string,
    readonly bundle: number,
    readonly choice: PurchaseKey,
  ) {}

  check(model: ApiModel): boolean {
    return model.bundles.length > 0 && (this.choice.mode === 'fresh' || model.account(this.account).purchaseKeys.length > 0);
  }

  async run(model: ApiModel, world: World): Promise<void> {
    const account = model.account(this.account);
    let key = model.unique('p');
    let bundle = pick(model.bundles, this.bundle)!;
    if (this.choice.mode === 'reuse') {
      const used = pick(account.purchaseKeys, this.choice.n)!;
      key = used.key;
      const same = model.bundles.find((b) => b.id === used.bundleId)!;
      bundle = this.choice.sameBundle ? same : (model.bundles.find((b) => b.id !== used.bundleId) ?? same);
    }
    account.purchaseKeys.push({ key, bundleId: bundle.id });
    const a = await world.rest('purchaseTokens', { key: keyOf(model, account, 'readWrite'), body: { bundleId: bundle.id }, headers: { 'Idempotency-Key': key } });
    const earlier = account.purchases.get(key);
    if (earlier && model.now() - earlier.at < WINDOW_MS) {
      if (earlier.bundleId !== bundle.id) return expectRefused(model, a, { status: 409, code: 'CONFLICT' }, {}, CONFLICT);
      expectOk(model, a, 200, REPLAY);
      if (a.json?.idempotent !== true || a.json?.transaction?.id !== earlier.transactionId) fail(REPLAY, `expected transaction ${earlier.transactionId}, ${seen(a)}`);
      return expectBalance(model, account, a.json?.balance, 'the balance a purchase replay answers');
    }
    expectOk(model, a, 201, PURCHASE);
    const t = a.json?.transaction ?? {};
    if (t.type !== 'purchase' || t.amount !== bundle.tokens || t.bundleId !== bundle.id || a.json?.idempotent !== undefined) fail(PURCHASE, seen(a));
    account.balance += bundle.tokens;
    account.lifetimePurchased += bundle.tokens;
    account.ledger.push({ type: 'purchase', amount: bundle.tokens, buildId: null, bundleId: bundle.id });
    account.purchases.set(key, { bundleId: bundle.id, transactionId: t.id, at: model.now() });
    expectBalance(model, account, a.json?.balance, 'the balance a purchase answers');
  }

  toString(): string {
    const key = this.choice.mode === 'fresh' ? 'fresh key' : `reuse purchase key #${this.choice.n} ${this.choice.sameBundle ? 'same bundle' : 'another bundle'}`;
    return `purchaseTokens(${this.account}, bundle #${this.bundle}, ${key})`;
  }
}
