import type { Clock } from '../clock/clock.js';
import { purchase } from '../ledger/ledger.js';
import type { Account } from '../store/account.js';
import type { Store } from '../store/store.js';
import { counted } from '../errors/counted.js';

export interface RoleKeys {
  readWrite: string;
  readOnly: string;
  writeOnly: string;
  revoked: string;
}

export interface AccountWithKeys {
  account: Account;
  keys: RoleKeys;
}

/** An account with a starting purchase and one key of every role (the revoked one revoked). */
export function createAccountWithKeys(store: Store, options: { name: string; balance: number }, now: number, clock: Clock | null = null): AccountWithKeys {
  const account = store.createAccount(options.name, now);
  account.clock = clock;
  account.openingBalance = options.balance;
  if (options.balance > 0) purchase(account, options.balance, openingDescription(options.balance), now);
  const readWrite = store.issueKey(account, 'Read and write', ['svc:read', 'svc:write'], now);
  const readOnly = store.issueKey(account, 'Read only', ['svc:read'], now);
  const writeOnly = store.issueKey(account, 'Write only', ['svc:write'], now);
  const revoked = store.issueKey(account, 'Revoked', ['svc:read', 'svc:write'], now);
  store.revokeKey(revoked.record, now);
  return {
    account,
    keys: { readWrite: readWrite.value, readOnly: readOnly.value, writeOnly: writeOnly.value, revoked: revoked.value },
  };
}

export function openingDescription(tokens: number): string {
  return `Token bundle: ${counted(tokens, 'token')}`;
}

/** The keys printed at start-up; the same seed always gives the same keys. */
export interface SeededKeys extends RoleKeys {
  /** Read+write key of an account whose balance is zero. */
  emptyAccount: string;
}

export const DEFAULT_STARTING_BALANCE = 100;

export function seedAccounts(store: Store, now: number): SeededKeys {
  return store.seeded(() => {
    const demo = createAccountWithKeys(store, { name: 'Demo account', balance: DEFAULT_STARTING_BALANCE }, now);
    const empty = store.createAccount('Empty account', now);
    const emptyKey = store.issueKey(empty, 'Read and write', ['svc:read', 'svc:write'], now);
    return { ...demo.keys, emptyAccount: emptyKey.value };
  });
}
