import { purchase } from '../ledger/ledger.js';
import type { SimulatorState } from './simulator-state.js';
import { openingDescription } from '../seed/accounts.js';
import type { Account } from '../store/account.js';
import { restoreSnapshot } from './snapshot.js';

/**
 * The whole simulator back to its seeded start: the state it had when it was made (accounts,
 * keys, clock, id streams), with every rate-limit window afresh. Same seed, same start.
 */
export function resetSimulation(sim: SimulatorState, initialState: string): void {
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
 * deliverables, library, shares, images, audio, chats, MCP tasks, idempotency records), and its ledger
 * holds only its opening purchase again. Ids are not reissued: its id stream goes on.
 */
export function resetAccount(sim: SimulatorState, account: Account, now: number): void {
  sim.journal.clear(account.id);
  sim.faults.clear(account.id);
  sim.store.clearAccount(account);
  if (account.openingBalance > 0) purchase(account, account.openingBalance, openingDescription(account.openingBalance), now);
}
