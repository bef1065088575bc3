import { ApiError } from '../errors/api-error.js';
import type { Account } from '../store/account.js';

/**
 * What one account may store, so that no account of a shared simulator can fill its memory
 * for the others. Each count caps one kind of record; `storedBytes` caps their estimated sum.
 * The defaults are far beyond what a CI run makes; `--quota-*` changes them. Past a quota the
 * call that would store more is 409 CONFLICT with `details.quota` naming it; nothing is stored.
 * Builds are not counted here: each one spends tokens, and the balance bounds them.
 */
export interface Quotas {
  targets: number;
  libraryItems: number;
  chats: number;
  images: number;
  audio: number;
  shares: number;
  /** API keys, revoked ones included: they stay listed, so they stay stored. */
  keys: number;
  storedBytes: number;
}

export type QuotaName = keyof Quotas;

export const DEFAULT_QUOTAS: Readonly<Quotas> = {
  targets: 1000,
  libraryItems: 2000,
  chats: 500,
  images: 10_000,
  audio: 10_000,
  shares: 10_000,
  keys: 1000,
  storedBytes: 64 * 1024 * 1024,
};

/**
 * What a record of each kind holds in memory, roughly, with the text a caller may put in it at
 * its largest (a target's brand kit, an item's 2,000 characters, a chat's 100 messages of up to
 * 4,000): the estimate `storedBytes` counts, cheap to take on every write.
 */
export const RECORD_BYTES: Readonly<Record<Exclude<QuotaName, 'storedBytes'>, number>> = {
  targets: 16 * 1024,
  libraryItems: 8 * 1024,
  chats: 64 * 1024,
  images: 2 * 1024,
  audio: 1024,
  shares: 1024,
  keys: 1024,
};

const COUNTED = Object.keys(RECORD_BYTES) as Array<Exclude<QuotaName, 'storedBytes'>>;

/** How much of each quota the account uses now: constant time, from its collections' sizes. */
export function quotaUsage(account: Account): Record<QuotaName, number> {
  const used = {
    targets: account.targets.size,
    libraryItems: account.library.size,
    chats: account.chats.size,
    images: account.images.size,
    audio: account.audio.size,
    shares: account.shares.size,
    keys: account.keys.size,
    storedBytes: 0,
  };
  for (const name of COUNTED) used.storedBytes += used[name] * RECORD_BYTES[name];
  return used;
}

/** Refuses (409 CONFLICT naming the quota) a record of kind `name` that would take the account past its quota. */
export function assertRoomFor(quotas: Quotas, account: Account, name: Exclude<QuotaName, 'storedBytes'>): void {
  const used = quotaUsage(account);
  if (used[name] + 1 > quotas[name]) throw quotaExceeded(name, quotas[name], used[name]);
  if (used.storedBytes + RECORD_BYTES[name] > quotas.storedBytes) throw quotaExceeded('storedBytes', quotas.storedBytes, used.storedBytes);
}

function quotaExceeded(quota: QuotaName, limit: number, used: number): ApiError {
  const what = quota === 'storedBytes' ? `${Math.round(limit / 1024)} KiB of records (estimated)` : `${limit} ${QUOTA_NOUNS[quota]}`;
  return new ApiError(409, 'CONFLICT', `This account holds its quota of ${what}: delete some first, or start the simulator with a larger --quota-*.`, {
    quota,
    limit,
    used,
  });
}

const QUOTA_NOUNS: Record<QuotaName, string> = {
  targets: 'targets',
  libraryItems: 'library items',
  chats: 'chats',
  images: 'images',
  audio: 'listen versions',
  shares: 'shares',
  keys: 'API keys',
  storedBytes: 'bytes',
};
