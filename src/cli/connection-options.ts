import { readFileSync } from 'node:fs';

/**
 * The bounds on connections of `content-sim serve`: how many may be open, in all and from
 * one client address, and how long a client may take to send its headers and its body.
 * Slow clients are cut off well before the process runs out of file descriptors.
 */
export interface ConnectionOptions {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /** Milliseconds a client has to send its request's headers. */
  headersTimeoutMs: number;
  /** Milliseconds a client has to send its whole request, body included. */
  requestTimeoutMs: number;
}

export const DEFAULT_MAX_CONNECTIONS = 4096;
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 512;
export const DEFAULT_HEADER_TIMEOUT_S = 10;
export const DEFAULT_BODY_TIMEOUT_S = 30;
/** Descriptors kept free for everything else: the listener, the state file, /proc reads, the log. */
const DESCRIPTOR_RESERVE = 64;

/** The parseArgs declarations of these options. */
export const CONNECTION_ARGS = {
  'max-connections': { type: 'string' },
  'max-connections-per-address': { type: 'string' },
  'header-timeout': { type: 'string' },
  'body-timeout': { type: 'string' },
} as const;

export const CONNECTION_USAGE = `  --max-connections <n>
                      Open connections at most (default ${DEFAULT_MAX_CONNECTIONS}, or fewer when the
                      descriptor limit, ulimit -n, is lower: that limit less ${DESCRIPTOR_RESERVE}). Past it the oldest
                      connection not being answered is closed, else the newcomer gets 503
  --max-connections-per-address <n>
                      Open connections from one client address (default ${DEFAULT_MAX_CONNECTIONS_PER_ADDRESS})
  --header-timeout <s>
                      Seconds a client has to send its request headers (default ${DEFAULT_HEADER_TIMEOUT_S})
  --body-timeout <s>  Seconds a client has to send its whole request, body included (default ${DEFAULT_BODY_TIMEOUT_S})
`;

type Values = Partial<Record<keyof typeof CONNECTION_ARGS, string>>;

/** The options from the command line; throws `fail(message)` on a bad value. */
export function parseConnectionOptions(values: Values, fail: (message: string) => Error, descriptorLimit = openFileLimit()): ConnectionOptions {
  const whole = (name: keyof Values, fallback: number, max: number): number => {
    const text = values[name];
    if (text === undefined) return fallback;
    const n = Number(text);
    if (text === '' || !Number.isInteger(n) || n < 1 || n > max) throw fail(`--${name} must be 1 to ${max}, not ${text}`);
    return n;
  };
  const seconds = (name: keyof Values, fallback: number): number => {
    const text = values[name];
    const s = text === undefined ? fallback : Number(text);
    if (text === '' || !Number.isFinite(s) || s < 0.1 || s > 3600) throw fail(`--${name} must be 0.1 to 3600 seconds, not ${text}`);
    return Math.round(s * 1000);
  };
  const byDescriptors = descriptorLimit === undefined ? DEFAULT_MAX_CONNECTIONS : Math.max(16, descriptorLimit - DESCRIPTOR_RESERVE);
  const maxConnections = whole('max-connections', Math.min(DEFAULT_MAX_CONNECTIONS, byDescriptors), 1_000_000);
  const headersTimeoutMs = seconds('header-timeout', DEFAULT_HEADER_TIMEOUT_S);
  const requestTimeoutMs = seconds('body-timeout', DEFAULT_BODY_TIMEOUT_S);
  if (requestTimeoutMs < headersTimeoutMs) throw fail('--body-timeout must be at least --header-timeout: it covers the headers too');
  return {
    maxConnections,
    maxConnectionsPerAddress: Math.min(maxConnections, whole('max-connections-per-address', DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, 1_000_000)),
    headersTimeoutMs,
    requestTimeoutMs,
  };
}

/** The process's soft limit on open files (Linux), or undefined where it cannot be read. */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}
