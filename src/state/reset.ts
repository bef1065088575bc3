import { purchase } from '../ledger/ledger.js';
import type { Simulation } from '../operations/context.js';
import { openingDescription } from '../seed/accounts.js';
import type { Account } from '../store/account.js';
import { restoreSnapshot } from './snapshot.js';

/**
 * The whole simulator back to its seeded start: the state it had when it was made (accounts,
 * keys, clock, id streams), with every rate-limit window afresh. Same seed, same start.
 */
export function resetSimulation(sim: Simulation, initialState: string): void {
  restoreSnapshot(sim, JSON.parse(initialState));
  sim.journal.clear();
  sim.faults.clear();
  sim.limiter.clear();
  sim.guessing.failedAuth.clear();
  sim.guessing.shareView.clear();
}

/**
 * One account back to empty, for the next test case: its keys (and OAuth grants) stay, so
 * the test goes on with the same credentials; everything it made is gone (targets, builds,
 * deliverables, library, shares, images, audio, chats, idempotency records), and its ledger
 * holds only its opening purchase again. Ids are not reissued: its id stream goes on.
 */
export function resetAccount(sim: Simulation, account: Account, now: number): void {
  sim.journal.clear(account.id);
  sim.faults.clear(account.id);
  for (const share of account.shares.values()) sim.store.shareTokens.delete(share.token);
  for (const collection of [account.transactions, account.targets, account.builds, account.library, account.shares, account.images, account.audio, account.chats]) {
    collection.clear();
  }
  account.buildIndex.clear();
  account.deliverables.clear();
  account.audioByDeliverableVoice.clear();
  account.slugs.clear();
  account.idempotency.restore([]);
  account.purchaseIdempotency.restore([]);
  account.pendingRefunds.length = 0;
  account.balance = 0;
  account.lifetimePurchased = 0;
  account.lifetimeUsed = 0;
  if (account.openingBalance > 0) purchase(account, account.openingBalance, openingDescription(account.openingBalance), now);
}
