import { DEFAULT_QUOTAS, type QuotaName, type Quotas } from '../limits/quotas.js';

/**
 * `--quota-<name> <n>`: what one account may store, changed from the defaults (far beyond what
 * a CI run makes). `--quota-stored-mib` takes MiB; the others count records.
 */
const FLAGS: Record<string, QuotaName> = {
  'quota-targets': 'targets',
  'quota-library-items': 'libraryItems',
  'quota-chats': 'chats',
  'quota-images': 'images',
  'quota-audio': 'audio',
  'quota-shares': 'shares',
  'quota-keys': 'keys',
  'quota-stored-mib': 'storedBytes',
};

const MiB = 1024 * 1024;

/** The parseArgs declarations of these options. */
export const QUOTA_ARGS = Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }])) as Record<keyof typeof FLAGS, { type: 'string' }>;

export const QUOTA_USAGE = `  --quota-<kind> <n>  What one account may store (409 CONFLICT past it, naming the quota):
                      --quota-targets (default ${DEFAULT_QUOTAS.targets}), --quota-library-items (${DEFAULT_QUOTAS.libraryItems}),
                      --quota-chats (${DEFAULT_QUOTAS.chats}), --quota-images (${DEFAULT_QUOTAS.images}), --quota-audio (${DEFAULT_QUOTAS.audio}),
                      --quota-shares (${DEFAULT_QUOTAS.shares}), --quota-keys (${DEFAULT_QUOTAS.keys}), and
                      --quota-stored-mib (${DEFAULT_QUOTAS.storedBytes / MiB}: their estimated bytes, in MiB)
`;

/** The quotas given on the command line (only those), or throws `fail(message)` on a bad value. */
export function parseQuotaOptions(values: Partial<Record<string, string | string[] | boolean | undefined>>, fail: (message: string) => Error): Partial<Quotas> {
  const quotas: Partial<Quotas> = {};
  for (const [flag, name] of Object.entries(FLAGS)) {
    const text = values[flag];
    if (typeof text !== 'string') continue;
    const n = Number(text);
    if (text === '' || !Number.isInteger(n) || n < 0 || n > 100_000_000) throw fail(`--${flag} must be a whole number from 0 to 100000000, not ${text}`);
    quotas[name] = name === 'storedBytes' ? n * MiB : n;
  }
  return quotas;
}
