import { closestName } from '../shared/closest-name.js';
import { unknownOption, UsageProblem } from '../shared/usage-problem.js';
import { MODEL_FLAG_ENV, MODEL_HELP, MODEL_USAGE, modelOptionsFromEnv, type ModelOptions } from './model/options.js';
import type { ContractLevel } from '../shared/contract-validator.js';

/** The credentials the suite can use, by what they may do. Only readWrite is required. */
export type Role = 'readWrite' | 'readOnly' | 'writeOnly' | 'revoked' | 'empty';
export const ROLES: readonly Role[] = ['readWrite', 'readOnly', 'writeOnly', 'revoked', 'empty'];

export const ROLE_ENV: Readonly<Record<Role, string>> = {
  readWrite: 'CONTRACT_KEY_READ_WRITE',
  readOnly: 'CONTRACT_KEY_READ_ONLY',
  writeOnly: 'CONTRACT_KEY_WRITE_ONLY',
  revoked: 'CONTRACT_KEY_REVOKED',
  empty: 'CONTRACT_KEY_EMPTY',
};

export const ROLE_DESCRIPTION: Readonly<Record<Role, string>> = {
  readWrite: 'a key with svc:read and svc:write',
  readOnly: 'a key with svc:read only',
  writeOnly: 'a key with svc:write only',
  revoked: 'a revoked key',
  empty: 'a read+write key of an account whose balance is 0',
};

export interface SuiteConfig {
  baseUrl: string;
  level: ContractLevel;
  keys: Partial<Record<Role, string>>;
  /** Groups of checks that can be switched off: spending tokens, exhausting a rate limit, waiting for builds. */
  spend: boolean;
  exhaust: boolean;
  wait: boolean;
  /** Buy token bundles (real money on a real service): only when asked for; the simulator's purchases cost nothing. */
  allowPurchases: boolean;
  /** Bounds; undefined takes the default for the target (tight for a real service, loose for the simulator). */
  requestBudget?: number;
  tokenBudget?: number;
  timeBudgetMs?: number;
  /** Polling interval of a build on a service whose clock the suite cannot move. */
  pollIntervalMs: number;
  /** Prefix of everything the run creates, so its leftovers are recognisable. */
  runId: string;
  /** Look for the simulator's control API (`GET /_sim`) to create accounts and move time. */
  discoverSimulator: boolean;
  reportDir: string;
  /** List every unverified operation and exercise gap in the console report (the documented level folds them into one line). */
  listUnverified: boolean;
  /** For the OAuth checks of /mcp where the run cannot get tokens itself (no simulator control API). */
  oauth: { accessToken?: string; refreshToken?: string; clientId?: string; redirectUri?: string; signIn?: string };
  /** The official MCP conformance tool's command: its server scenarios run as a check of /mcp. */
  mcpConformance?: string;
  /** The model-based phase: its seed, its time budget, how many sequences (contracts/suite/model/options.ts). */
  model: ModelOptions;
}

export const DEFAULTS = {
  realService: { requestBudget: 400, tokenBudget: 5, timeBudgetMs: 30 * 60_000 },
  simulator: { requestBudget: 20_000, tokenBudget: 200, timeBudgetMs: 5 * 60_000 },
} as const;

const FLAG_ENV: Readonly<Record<string, string>> = {
  'base-url': 'CONTRACT_BASE_URL',
  level: 'CONTRACT_LEVEL',
  'key-read-write': ROLE_ENV.readWrite,
  'key-read-only': ROLE_ENV.readOnly,
  'key-write-only': ROLE_ENV.writeOnly,
  'key-revoked': ROLE_ENV.revoked,
  'key-empty': ROLE_ENV.empty,
  'request-budget': 'CONTRACT_REQUEST_BUDGET',
  'token-budget': 'CONTRACT_TOKEN_BUDGET',
  'time-budget': 'CONTRACT_TIME_BUDGET',
  'poll-interval': 'CONTRACT_POLL_INTERVAL',
  'run-id': 'CONTRACT_RUN_ID',
  'report-dir': 'CONTRACT_REPORT_DIR',
  'mcp-conformance': 'CONTRACT_MCP_CONFORMANCE',
  ...MODEL_FLAG_ENV,
};
const SWITCH_ENV: Readonly<Record<string, string>> = {
  'no-spend': 'CONTRACT_SPEND',
  'no-exhaust': 'CONTRACT_EXHAUST',
  'no-wait': 'CONTRACT_WAIT',
  'no-simulator': 'CONTRACT_SIMULATOR',
  'no-model': 'CONTRACT_MODEL',
};
/** Switches that turn on what is off by default. */
const OPT_IN_ENV: Readonly<Record<string, string>> = {
  'allow-purchases': 'CONTRACT_ALLOW_PURCHASES',
  'list-unverified': 'CONTRACT_LIST_UNVERIFIED',
};

export const USAGE = `Usage: content-contracts --base-url <url> [options]

  --base-url <url>         the server to check (CONTRACT_BASE_URL)
  --level <level>          documented (what the spec states; safe for the real service) or strict
                           (everything openapi.yaml states, inferences included). Default documented.
  --key-read-write <key>   ${ROLE_DESCRIPTION.readWrite} (CONTRACT_KEY_READ_WRITE; required unless the
                           target is the simulator, which gives the suite a fresh account)
  --key-read-only <key>    ${ROLE_DESCRIPTION.readOnly} (CONTRACT_KEY_READ_ONLY)
  --key-write-only <key>   ${ROLE_DESCRIPTION.writeOnly} (CONTRACT_KEY_WRITE_ONLY)
  --key-revoked <key>      ${ROLE_DESCRIPTION.revoked} (CONTRACT_KEY_REVOKED)
  --key-empty <key>        ${ROLE_DESCRIPTION.empty} (CONTRACT_KEY_EMPTY)
  --no-spend               skip the checks that spend tokens (CONTRACT_SPEND=0)
  --no-exhaust             skip the checks that exhaust a rate limit (CONTRACT_EXHAUST=0)
  --no-wait                skip the checks that wait for a build to finish (CONTRACT_WAIT=0)
  --allow-purchases        let the strict level buy the smallest token bundle (real money on a real
                           service; CONTRACT_ALLOW_PURCHASES=1). Always on against the simulator.
  --request-budget <n>     at most n requests (default ${DEFAULTS.realService.requestBudget}; ${DEFAULTS.simulator.requestBudget} on the simulator)
  --token-budget <n>       at most n tokens spent (default ${DEFAULTS.realService.tokenBudget}; ${DEFAULTS.simulator.tokenBudget} on the simulator)
  --time-budget <s>        stop starting checks after s seconds (default ${DEFAULTS.realService.timeBudgetMs / 1000}; ${DEFAULTS.simulator.timeBudgetMs / 1000} on the simulator)
  --poll-interval <s>      build polling interval on a real service (default 30, the spec's)
  --run-id <text>          prefix of what the run creates (default: contract-<time>)
  --no-simulator           do not look for the simulator's /_sim control API
  --report-dir <dir>       where the JUnit, summary and coverage files go (default reports)
  --mcp-conformance <cmd>  run the official MCP conformance tool's server scenarios against /mcp
                           (strict level), e.g. "npx @modelcontextprotocol/conformance" on Node 22
                           or newer (CONTRACT_MCP_CONFORMANCE)
  --list-unverified        list every unverified operation, every operation never called and every
                           status, parameter and error code not reached (CONTRACT_LIST_UNVERIFIED=1).
                           The documented level folds them into one line by default; the strict
                           level lists them. The summary file (contracts-summary.json) always has
                           them all, under gaps, coverage and exercised.
${MODEL_USAGE}

Only what the contract documents is judged: headers it does not mention (Server, Via, X-Request-Id,
HSTS, cookies that a proxy or balancer adds) are never violations; a documented header with a wrong
value is. A server that breaks a rule at any step, the /_sim probe included, gets a failed check
named for that rule.

Keys are better passed in the environment than on the command line. A simulator started with
--control-token needs it in CONTRACT_CONTROL_TOKEN.

${MODEL_HELP}

The OAuth checks of /mcp get their tokens from the simulator's control API; against another
server, give them in the environment: CONTRACT_OAUTH_ACCESS_TOKEN and CONTRACT_OAUTH_REFRESH_TOKEN
(a grant of svc:read, for CONTRACT_OAUTH_CLIENT_ID), and CONTRACT_OAUTH_REDIRECT_URI when the
server has no dynamic registration. The authorization-code checks sign in headlessly on the
simulator; against another server, CONTRACT_OAUTH_SIGN_IN names a command that signs a user in:
it gets the authorization URL as its argument (and in CONTRACT_OAUTH_AUTHORIZE_URL), the key
whose user and scopes to grant in CONTRACT_OAUTH_SIGN_IN_KEY, and prints the URL the browser was
sent back to, with its code.

Also: content-contracts diff <old.yaml> <new.yaml>   breaking changes between two contracts
      content-contracts proxy --target <url>         a validation proxy for a client's traffic
      content-contracts drift --har <file> --base-url <url>   replay a recording, report drift
      content-contracts scene --har <file> [--out scene.yaml]   a recording made a scenario of its last state
      (each with --help)`;

/** Turns the runner's flags into the environment the suite reads; unknown flags are errors. */
/** Every flag of the suite's own run, for "did you mean". */
const SUITE_FLAGS = [...Object.keys(FLAG_ENV), ...Object.keys(SWITCH_ENV), ...Object.keys(OPT_IN_ENV), 'help'];
const SUBCOMMANDS = ['proxy', 'drift', 'diff'];
const closestCommand = (word: string) => (SUBCOMMANDS.find((c) => c.startsWith(word) || word.startsWith(c)) ?? SUBCOMMANDS.find((c) => c === closestName(word, SUBCOMMANDS)));

export function flagsToEnv(argv: readonly string[]): { env: Record<string, string>; help: boolean } {
  const env: Record<string, string> = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') continue;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const [flag, inline] = arg.replace(/^--/, '').split(/=(.*)/s, 2) as [string, string | undefined];
    if (!arg.startsWith('--')) {
      const command = closestCommand(arg);
      throw new UsageProblem(`unexpected argument ${arg}${command ? `: did you mean content-contracts ${command}?` : ''}`);
    }
    if (flag in SWITCH_ENV) {
      env[SWITCH_ENV[flag] as string] = '0';
      continue;
    }
    if (flag in OPT_IN_ENV) {
      env[OPT_IN_ENV[flag] as string] = '1';
      continue;
    }
    const name = FLAG_ENV[flag];
    if (!name) throw unknownOption(`--${flag}`, SUITE_FLAGS);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageProblem(`--${flag} needs a value: --${flag} <value> or --${flag}=<value>`);
    env[name] = value;
  }
  return { env, help };
}

export function configFromEnv(env: Record<string, string | undefined>): SuiteConfig {
  const baseUrl = env.CONTRACT_BASE_URL;
  if (!baseUrl) throw new Error('no base URL: pass --base-url or set CONTRACT_BASE_URL');
  if (!/^https?:\/\//.test(baseUrl)) throw new Error(`the base URL must start with http:// or https://, not ${baseUrl}`);
  const level = env.CONTRACT_LEVEL ?? 'documented';
  if (level !== 'documented' && level !== 'strict') throw new Error(`the level is documented or strict, not ${level}`);
  const keys: Partial<Record<Role, string>> = {};
  for (const role of ROLES) {
    const value = env[ROLE_ENV[role]];
    if (value) keys[role] = value;
  }
  const on = (name: string) => env[name] !== '0' && env[name] !== 'false';
  const number = (name: string, scale = 1): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not ${raw}`);
    return value * scale;
  };
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    level,
    keys,
    spend: on('CONTRACT_SPEND'),
    exhaust: on('CONTRACT_EXHAUST'),
    wait: on('CONTRACT_WAIT'),
    allowPurchases: env.CONTRACT_ALLOW_PURCHASES === '1' || env.CONTRACT_ALLOW_PURCHASES === 'true',
    requestBudget: number('CONTRACT_REQUEST_BUDGET'),
    tokenBudget: number('CONTRACT_TOKEN_BUDGET'),
    timeBudgetMs: number('CONTRACT_TIME_BUDGET', 1000),
    pollIntervalMs: number('CONTRACT_POLL_INTERVAL', 1000) ?? 30_000,
    runId: (env.CONTRACT_RUN_ID ?? `contract-${Date.now().toString(36)}`).toLowerCase().replace(/[^a-z0-9-]/g, '-'),
    discoverSimulator: on('CONTRACT_SIMULATOR'),
    reportDir: env.CONTRACT_REPORT_DIR ?? 'reports',
    listUnverified: env.CONTRACT_LIST_UNVERIFIED === '1' || env.CONTRACT_LIST_UNVERIFIED === 'true',
    oauth: {
      accessToken: env.CONTRACT_OAUTH_ACCESS_TOKEN || undefined,
      refreshToken: env.CONTRACT_OAUTH_REFRESH_TOKEN || undefined,
      clientId: env.CONTRACT_OAUTH_CLIENT_ID || undefined,
      redirectUri: env.CONTRACT_OAUTH_REDIRECT_URI || undefined,
      signIn: env.CONTRACT_OAUTH_SIGN_IN || undefined,
    },
    mcpConformance: env.CONTRACT_MCP_CONFORMANCE || undefined,
    model: modelOptionsFromEnv(env),
  };
}
